import { useEffect, useRef, useState } from "react";
import { api } from "../api.ts";
import { flashThenGo, toast } from "../toast.ts";
import { dropDraft, loadDraft, saveDraft } from "./draft.ts";
import { EditorBody } from "./EditorBody.tsx";
import { EditorMeta, type CategoryOpt, type MetaValues } from "./EditorMeta.tsx";

export interface EditableArticle extends MetaValues { id: number; title: string; content: string; status: number; reject_reason: string }

export interface ArticleEditorProps {
  /** the article of /post?id= (null: a new one) */
  initial: EditableArticle | null;
  categories: CategoryOpt[];
  needsReview: boolean;
  maxLength: number;
  /** administrators may set the identifier and are never reviewed */
  admin: boolean;
}

const EMPTY = { title: "", content: "", category_id: 0, keywords: "", description: "", cover: "", identifier: "" };

/** /post: write or edit an article in markdown with a live preview; unsaved work stays in local storage. */
export default function ArticleEditor(p: ArticleEditorProps) {
  const id = p.initial?.id ?? 0;
  const [v, setV] = useState(() => ({ ...EMPTY, ...(p.initial ?? {}) }));
  const [mode, setMode] = useState<"write" | "preview">("write");
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [restored, setRestored] = useState(false);
  const saved = useRef(false);

  useEffect(() => {
    const d = loadDraft(id);
    if (d && (d.title !== v.title || d.content !== v.content)) {
      setV((cur) => ({ ...cur, title: d.title, content: d.content, category_id: d.category_id, keywords: d.keywords, description: d.description, cover: d.cover }));
      setRestored(true);
    }
    setReady(true);
  }, []);

  useEffect(() => {
    if (!ready || saved.current) return;
    const t = setTimeout(() => saveDraft(id, { title: v.title, content: v.content, category_id: v.category_id, keywords: v.keywords, description: v.description, cover: v.cover }), 800);
    return () => clearTimeout(t);
  }, [v, ready]);

  const set = (patch: Partial<typeof v>) => setV((cur) => ({ ...cur, ...patch }));

  const discard = () => {
    dropDraft(id);
    setV({ ...EMPTY, ...(p.initial ?? {}) });
    setRestored(false);
    toast("已丢弃草稿", "info");
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!v.title.trim()) return toast("请输入文章标题", "error");
    if (!v.content.trim()) return toast("请输入文章内容", "error");
    if ([...v.content].length > p.maxLength) return toast(`文章内容不能超过 ${p.maxLength} 个字`, "error");
    const body: Record<string, unknown> = {
      title: v.title.trim(), content: v.content, category_id: v.category_id ? [v.category_id] : [], keywords: v.keywords, description: v.description, cover: v.cover,
    };
    if (p.admin && v.identifier.trim()) body.identifier = v.identifier.trim();
    setBusy(true);
    const r = id
      ? await api<{ identifier: string; message: string }>("PUT", "/article", { body: { id, ...body } })
      : await api<{ identifier: string; message: string }>("POST", "/article", { body });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "发布失败", "error");
    saved.current = true;
    dropDraft(id);
    flashThenGo(r.data.message || "发布成功", `/article/${r.data.identifier}`);
  };

  const off = !ready || busy;
  return (
    <form className="card art-editor" onSubmit={(e) => void submit(e)} noValidate>
      {restored ? (
        <p className="art-notice" role="status">
          已恢复上次未发布的草稿。<button type="button" className="btn btn-sm btn-text" onClick={discard}>丢弃草稿</button>
        </p>
      ) : null}
      {p.initial?.status === 2 ? <p className="art-notice art-notice-bad">{`这篇文章未通过审核${p.initial.reject_reason ? `：${p.initial.reject_reason}` : ""}。修改后保存会重新提交审核。`}</p> : null}
      <label className="art-title-field">
        <span className="art-sr-only">标题</span>
        <input name="title" value={v.title} maxLength={100} disabled={off} placeholder="请输入文章标题" onChange={(e) => set({ title: e.target.value })} />
      </label>
      <div className="art-modes" role="group" aria-label="编辑方式">
        <button type="button" aria-pressed={mode === "write"} className={mode === "write" ? "active" : undefined} disabled={!ready} onClick={() => setMode("write")}>编辑</button>
        <button type="button" aria-pressed={mode === "preview"} className={mode === "preview" ? "active" : undefined} disabled={!ready} onClick={() => setMode("preview")}>预览</button>
      </div>
      <EditorBody value={v.content} onChange={(content) => set({ content })} maxLength={p.maxLength} disabled={off} mode={mode} />
      <EditorMeta v={v} set={set} categories={p.categories} admin={p.admin} disabled={off} />
      <div className="art-submit">
        <span className="muted">{p.needsReview ? "提交后需要管理员审核，通过后公开。" : "发布后立即公开。"}草稿会自动保存在本机浏览器中。</span>
        <a className="btn" href={id ? "/me/article" : "/article"}>取消</a>
        <button type="submit" className="btn btn-primary" disabled={off}>{busy ? "提交中…" : id ? "保存修改" : "发布文章"}</button>
      </div>
    </form>
  );
}
