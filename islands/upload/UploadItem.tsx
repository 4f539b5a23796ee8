// One file of the upload form: its fields, progress bar and result (no default export: not an island).
import { formatBytes } from "#src/lib/format.ts";

export interface CategoryOpt { value: number; label: string; depth: number }
export interface Lang { code: string; name: string }
export type Phase = "ready" | "invalid" | "hashing" | "uploading" | "creating" | "done" | "error";

export interface Item {
  key: string;
  file: File;
  title: string;
  category_id: number | "";
  price: number | "";
  language: string;
  description: string;
  keywords: string;
  more: boolean;
  phase: Phase;
  /** 0–100 of the current phase (hashing, then uploading) */
  progress: number;
  message: string;
  instant: boolean;
}

const PHASE_TEXT: Record<Phase, string> = {
  ready: "等待上传", invalid: "无法上传", hashing: "正在计算文件指纹", uploading: "正在上传", creating: "正在创建文档", done: "上传成功", error: "上传失败",
};
export const editable = (p: Phase) => p === "ready" || p === "error";
const busy = (p: Phase) => p === "hashing" || p === "uploading" || p === "creating";

interface Props {
  item: Item;
  categories: CategoryOpt[];
  languages: Lang[];
  creditName: string;
  locked: boolean;
  onChange: (patch: Partial<Item>) => void;
  onRemove: () => void;
}

export function UploadItem({ item, categories, languages, creditName, locked, onChange, onRemove }: Props) {
  const ext = /\.([a-z0-9]{1,8})$/i.exec(item.file.name)?.[1]?.toUpperCase() ?? "FILE";
  const off = locked || !editable(item.phase);
  const id = (f: string) => `up-${item.key}-${f}`;
  const bar = item.phase === "done" ? 100 : item.progress;
  const status = item.phase === "uploading" || item.phase === "hashing" ? `${PHASE_TEXT[item.phase]} ${Math.floor(item.progress)}%` : item.message || PHASE_TEXT[item.phase];
  return (
    <li className={`up-item up-${item.phase}`}>
      <div className="up-item-head">
        <span className="up-ext">{ext}</span>
        <span className="up-name" title={item.file.name}>{item.file.name}</span>
        <span className="muted up-size">{formatBytes(item.file.size)}</span>
        {item.instant ? <span className="up-instant">秒传</span> : null}
        <button type="button" className="up-remove" aria-label={`移除 ${item.file.name}`} disabled={locked || busy(item.phase)} onClick={onRemove}>×</button>
      </div>
      {item.phase === "invalid" ? null : item.phase === "done" ? (
        <p className="up-done-title">{`《${item.title.trim()}》 · ${categories.find((c) => c.value === item.category_id)?.label ?? ""} · ${item.price ? `${item.price} ${creditName}` : "免费"}`}</p>
      ) : (
        <div className="up-fields">
          <label className="field up-wide"><span>标题</span>
            <input id={id("title")} value={item.title} maxLength={255} disabled={off} placeholder="请输入文档标题" onChange={(e) => onChange({ title: e.target.value })} />
          </label>
          <label className="field"><span>分类</span>
            <select id={id("category")} value={String(item.category_id)} disabled={off} onChange={(e) => onChange({ category_id: e.target.value ? Number(e.target.value) : "" })}>
              <option value="" disabled>请选择分类</option>
              {categories.map((o) => <option key={o.value} value={o.value}>{"　".repeat(o.depth) + o.label}</option>)}
            </select>
          </label>
          <label className="field"><span>{`价格（${creditName}）`}</span>
            <input id={id("price")} type="number" inputMode="numeric" min={0} max={100000} step={1} value={item.price} disabled={off} onChange={(e) => onChange({ price: e.target.value === "" ? "" : Number(e.target.value) })} />
          </label>
          <label className="field"><span>语言</span>
            <select id={id("language")} value={item.language} disabled={off} onChange={(e) => onChange({ language: e.target.value })}>
              {languages.map((l) => <option key={l.code} value={l.code}>{l.name}</option>)}
            </select>
          </label>
          {item.more ? (
            <>
              <label className="field up-wide"><span>关键词（选填，用逗号分隔）</span>
                <input id={id("keywords")} value={item.keywords} maxLength={255} disabled={off} onChange={(e) => onChange({ keywords: e.target.value })} />
              </label>
              <label className="field up-wide"><span>简介（选填，留空将根据内容自动生成）</span>
                <textarea id={id("description")} rows={3} maxLength={1000} value={item.description} disabled={off} onChange={(e) => onChange({ description: e.target.value })} />
              </label>
            </>
          ) : (
            <button type="button" className="up-more" disabled={off} onClick={() => onChange({ more: true })}>+ 填写关键词和简介</button>
          )}
        </div>
      )}
      <div className="up-progress">
        <div className="up-bar" role="progressbar" aria-label={`${item.file.name} 上传进度`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(bar)}>
          <span style={{ width: `${bar}%` }} />
        </div>
        <span className="up-status" role={item.phase === "error" || item.phase === "invalid" ? "alert" : undefined}>{status}</span>
      </div>
    </li>
  );
}
