// Edit dialog of "my documents" on public pages (no default export: not an island itself).
import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import type { CategoryOpt, Lang } from "./UploadItem.tsx";

export interface MyDoc {
  id: number; uuid: string; title: string; status: number; status_label: string; category_id: number; category_title: string; ext: string;
  pages: number; size: number; price: number; language: string; keywords: string; description: string; view_count: number; download_count: number;
  convert_error?: string; created_at: number;
}

interface Props { doc: MyDoc; categories: CategoryOpt[]; languages: Lang[]; creditName: string; onClose: () => void; onSaved: () => void }

/** Title, category, price, language, keywords and description of one document (PUT /document). */
export function UploadEditDialog({ doc, categories, languages, creditName, onClose, onSaved }: Props) {
  const [f, setF] = useState({ title: doc.title, category_id: doc.category_id, price: String(doc.price), language: doc.language, keywords: doc.keywords, description: doc.description });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const key = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", key);
    return () => document.removeEventListener("keydown", key);
  }, [onClose]);
  // A category disabled since the upload stays selectable for this document only.
  const options = categories.some((c) => c.value === doc.category_id) ? categories : [{ value: doc.category_id, label: doc.category_title || `#${doc.category_id}`, depth: 0 }, ...categories];
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => setF({ ...f, [k]: e.target.value });

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const price = Number(f.price || 0);
    if (!f.title.trim()) return toast("请输入文档标题", "error");
    if (!Number.isInteger(price) || price < 0 || price > 100000) return toast("价格必须是 0 到 100000 之间的整数", "error");
    setBusy(true);
    const body = { id: doc.id, title: f.title.trim(), category_id: Number(f.category_id), price, language: f.language, keywords: f.keywords.trim(), description: f.description.trim() };
    const r = await api("PUT", "/document", { body });
    setBusy(false);
    if (!r.ok) return toast(r.message || "保存失败", "error");
    toast("保存成功", "success");
    onSaved();
  };
  return (
    <div className="up-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <section className="up-dialog" role="dialog" aria-modal="true" aria-label="编辑文档">
        <header><h2>编辑文档</h2><button type="button" className="up-remove" aria-label="关闭" onClick={onClose}>×</button></header>
        <form className="form" onSubmit={save} noValidate>
          <label className="field"><span>标题</span><input name="title" value={f.title} maxLength={255} onChange={set("title")} /></label>
          <div className="up-fields">
            <label className="field"><span>分类</span>
              <select name="category_id" value={String(f.category_id)} onChange={set("category_id")}>
                {options.map((o) => <option key={o.value} value={o.value}>{"　".repeat(o.depth) + o.label}</option>)}
              </select>
            </label>
            <label className="field"><span>{`价格（${creditName}）`}</span><input name="price" type="number" min={0} max={100000} step={1} value={f.price} onChange={set("price")} /></label>
            <label className="field"><span>语言</span>
              <select name="language" value={f.language} onChange={set("language")}>
                {languages.map((l) => <option key={l.code} value={l.code}>{l.name}</option>)}
              </select>
            </label>
            <label className="field"><span>关键词</span><input name="keywords" value={f.keywords} maxLength={255} onChange={set("keywords")} /></label>
          </div>
          <label className="field"><span>简介</span><textarea name="description" rows={4} maxLength={1000} value={f.description} onChange={set("description")} /></label>
          <div className="up-dialog-actions">
            <button type="button" className="btn" onClick={onClose}>取消</button>
            <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "保存中…" : "保存"}</button>
          </div>
        </form>
      </section>
    </div>
  );
}
