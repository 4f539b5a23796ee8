// The editor's unsaved work in localStorage, per article (or "new"), so a closed tab or a failed
// publish loses nothing. Storage can be full or off (private mode): then drafts are simply skipped.
export interface Draft { title: string; content: string; category_id: number; keywords: string; description: string; cover: string; at: number }

const key = (id: number) => `wk-article-draft:${id || "new"}`;

export function loadDraft(id: number): Draft | null {
  try {
    const raw = localStorage.getItem(key(id));
    const d = raw ? (JSON.parse(raw) as Draft) : null;
    return d && typeof d.content === "string" && typeof d.title === "string" ? d : null;
  } catch {
    return null;
  }
}

export function saveDraft(id: number, d: Omit<Draft, "at">) {
  try {
    if (!d.title.trim() && !d.content.trim()) localStorage.removeItem(key(id));
    else localStorage.setItem(key(id), JSON.stringify({ ...d, at: Date.now() }));
  } catch {}
}

export function dropDraft(id: number) {
  try {
    localStorage.removeItem(key(id));
  } catch {}
}
