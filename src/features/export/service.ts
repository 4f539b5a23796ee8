// What an export needs besides the renderers: a stored chat answer (owner only), the file name, and
// the Content-Disposition header.
import { getSqlite } from "#db/client.ts";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { setting } from "#src/features/settings/service.ts";
import type { Reference } from "./docxInline.ts";
import { firstHeading } from "./markdown.ts";

export interface ExportSource {
  markdown: string;
  title?: string;
  references: Reference[];
}

function parseReferences(json: string | null): Reference[] {
  let list: unknown;
  try {
    list = JSON.parse(json || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.map((r) => {
    const x = (r ?? {}) as Record<string, unknown>;
    return { title: String(x.title ?? "").trim() || "未命名文档", uuid: String(x.uuid ?? ""), page: Math.max(1, Math.trunc(Number(x.page)) || 1) };
  });
}

/** The chat message as an export source, or null when it does not exist or is someone else's. */
export function messageSource(id: number, user: SessionUser): ExportSource | null {
  const db = getSqlite();
  // The chat tables come with the AI feature's migration; without them there is nothing to export.
  if (!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chat_message'").get()) return null;
  const row = db
    .query<{ user_id: number; question: string; answer: string; references: string | null }, [number]>(
      'SELECT user_id, question, answer, "references" FROM chat_message WHERE id = ?',
    )
    .get(id);
  if (!row || (row.user_id !== user.id && !user.is_root)) return null;
  const question = [...String(row.question ?? "").replace(/\s+/g, " ").trim()];
  return {
    markdown: String(row.answer ?? ""),
    title: question.slice(0, 30).join("") || undefined,
    references: parseReferences(row.references),
  };
}

/** A file name (without extension) from the title, the first heading, or "AI回答". */
export function exportFileName(markdown: string, title?: string): string {
  const raw = title?.trim() || firstHeading(markdown) || "";
  const clean = raw
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, "_")
    .replace(/\s+/g, " ")
    .replace(/^[.\s_]+|[.\s_]+$/g, "");
  return [...clean].slice(0, 60).join("").trim() || "AI回答";
}

// RFC 5987 attr-char leaves out some characters encodeURIComponent keeps.
const rfc5987 = (s: string) => encodeURIComponent(s).replace(/['()*!]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

/** `attachment` with the ASCII fallback `export.<ext>` and the real (Chinese) name as filename*. */
export function exportDisposition(name: string, ext: "docx" | "png"): string {
  return `attachment; filename="export.${ext}"; filename*=UTF-8''${rfc5987(`${name}.${ext}`)}`;
}

export const siteName = () => String(setting("system", "sitename") ?? "").trim() || "文库";

/** The site's public origin (system.domain), with a scheme; undefined when not configured. */
export function siteUrl(): string | undefined {
  const d = String(setting("system", "domain") ?? "").trim().replace(/\/+$/, "");
  if (!d) return undefined;
  return /^https?:\/\//i.test(d) ? d : `https://${d}`;
}
