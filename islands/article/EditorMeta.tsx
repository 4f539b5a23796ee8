// Category, keywords, summary, cover and (administrators) identifier of ArticleEditor (no default export).
import { useRef, useState } from "react";
import { uploadArticleImage } from "./uploadImage.ts";

export interface MetaValues { category_id: number; keywords: string; description: string; cover: string; identifier: string }
export interface CategoryOpt { value: number; label: string; depth: number }

export function EditorMeta({ v, set, categories, admin, disabled }: {
  v: MetaValues;
  set: (patch: Partial<MetaValues>) => void;
  categories: CategoryOpt[];
  admin: boolean;
  disabled: boolean;
}) {
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const pickCover = async (f: File | undefined) => {
    if (!f) return;
    setBusy(true);
    const path = await uploadArticleImage(f);
    setBusy(false);
    if (file.current) file.current.value = "";
    if (path) set({ cover: path });
  };
  return (
    <div className="art-meta-fields">
      <label className="field">
        <span>分类</span>
        <select name="category_id" value={v.category_id || ""} disabled={disabled} onChange={(e) => set({ category_id: Number(e.target.value) || 0 })}>
          <option value="">不分类</option>
          {categories.map((c) => <option key={c.value} value={c.value}>{`${"\u3000".repeat(c.depth)}${c.label}`}</option>)}
        </select>
      </label>
      <label className="field">
        <span>关键词</span>
        <input name="keywords" value={v.keywords} maxLength={255} disabled={disabled} placeholder="多个关键词用逗号分隔，留空则自动提取" onChange={(e) => set({ keywords: e.target.value })} />
      </label>
      <label className="field art-field-wide">
        <span>摘要</span>
        <textarea name="description" rows={2} value={v.description} maxLength={500} disabled={disabled} placeholder="一两句话介绍文章，留空则取正文开头" onChange={(e) => set({ description: e.target.value })} />
      </label>
      <div className="field art-cover-field">
        <span id="art-cover-label">封面（选填）</span>
        <div className="art-cover-row" role="group" aria-labelledby="art-cover-label">
          {v.cover ? <img className="art-cover-thumb" src={v.cover} alt="封面预览" /> : null}
          <button type="button" className="btn btn-sm" disabled={disabled || busy} onClick={() => file.current?.click()}>{busy ? "上传中…" : v.cover ? "更换封面" : "上传封面"}</button>
          {v.cover ? <button type="button" className="btn btn-sm btn-text" disabled={disabled} onClick={() => set({ cover: "" })}>移除</button> : null}
          <input ref={file} type="file" hidden accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => void pickCover(e.target.files?.[0])} />
        </div>
      </div>
      {admin ? (
        <label className="field">
          <span>文章标识（选填）</span>
          <input name="identifier" value={v.identifier} maxLength={64} disabled={disabled} placeholder="如 about，用于 /article/about；留空自动生成" onChange={(e) => set({ identifier: e.target.value.toLowerCase() })} />
        </label>
      ) : null}
    </div>
  );
}
