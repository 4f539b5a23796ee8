// Table cells and pager for the generic admin table (no default export: not an island itself).
import { useState } from "react";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import type { Opt } from "./AdminKit.tsx";

export interface ColumnDef {
  key: string;
  label: string;
  kind?: "text" | "bool" | "image" | "link" | "datetime" | "color" | "size" | "option" | "parent" | "code" | "tags";
  options?: Opt[];
  width?: number;
}

type Row = Record<string, unknown> & { id: number };

export function Cell({ col, row, rows, onPreview }: { col: ColumnDef; row: Row; rows: Row[]; onPreview: (src: string) => void }) {
  const v = row[col.key];
  const s = v === null || v === undefined ? "" : String(v);
  switch (col.kind) {
    case "bool":
      return <span className={v ? "adm-tag adm-tag-ok" : "adm-tag"}>{v ? "是" : "否"}</span>;
    case "image":
      if (!s) return <span className="adm-muted">—</span>;
      if (!/\.(png|jpe?g|gif|webp|svg)$/i.test(s)) return <span className="adm-ellipsis" title={s}>{s}</span>;
      return <button type="button" className="adm-thumb-btn" title="点击预览" onClick={() => onPreview(s)}><img className="adm-thumb-sm" src={s} alt={String(row.title ?? row.name ?? "")} loading="lazy" /></button>;
    case "link":
      return s ? <a className="adm-ellipsis" href={s} target="_blank" rel="noopener noreferrer" title={s}>{s}</a> : <span className="adm-muted">—</span>;
    case "datetime":
      return <span className="adm-nowrap">{typeof v === "number" ? formatDateTime(v) : "—"}</span>;
    case "size":
      return <span className="adm-nowrap">{formatBytes(Number(v) || 0)}</span>;
    case "color":
      return s ? <span className="adm-nowrap"><i className="adm-swatch" style={{ background: s }} />{s}</span> : <span className="adm-muted">默认</span>;
    case "option":
      return <span>{col.options?.find((o) => String(o.value) === s)?.label ?? s}</span>;
    case "parent": {
      const p = rows.find((r) => r.id === Number(v));
      return <span>{p ? String(p.title) : <span className="adm-muted">顶级</span>}</span>;
    }
    case "tags": {
      // [{ title, color }]: e.g. a user's groups
      const tags = Array.isArray(v) ? (v as { id?: number; title: string; color?: string }[]) : [];
      if (!tags.length) return <span className="adm-muted">—</span>;
      return <span className="adm-tags">{tags.map((t, i) => <span key={t.id ?? i} className="adm-tag" style={t.color ? { color: t.color, background: `${t.color}1a` } : undefined}>{t.title}</span>)}</span>;
    }
    case "code":
      return <code className="adm-ellipsis" title={s}>{s.length > 60 ? `${s.slice(0, 60)}…` : s}</code>;
    default:
      return <span className="adm-ellipsis" title={s}>{s || <span className="adm-muted">—</span>}</span>;
  }
}

export function Pager({ page, size, total, onPage }: { page: number; size: number; total: number; onPage: (p: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return <p className="adm-pager adm-muted">共 {total} 条</p>;
  const near = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  return (
    <nav className="adm-pager" aria-label="分页">
      <span className="adm-muted">共 {total} 条</span>
      <button type="button" className="adm-btn adm-btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>上一页</button>
      {near.map((p, i) => (
        <span key={p}>
          {i > 0 && p - near[i - 1]! > 1 ? <span className="adm-muted">…</span> : null}
          <button type="button" className={p === page ? "adm-btn adm-btn-sm adm-btn-primary" : "adm-btn adm-btn-sm"} aria-current={p === page ? "page" : undefined} onClick={() => onPage(p)}>{p}</button>
        </span>
      ))}
      <button type="button" className="adm-btn adm-btn-sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>下一页</button>
    </nav>
  );
}

export interface FilterDef { name: string; label: string; options: Opt[] }
export interface KeywordDef { name: string; placeholder: string }

/** Filter selects and the keyword search above the table; changes reset to page 1 in the caller. */
export function Toolbar({ filters, values, keyword, ready, onFilter, onSearch }: {
  filters: FilterDef[];
  values: Record<string, string>;
  keyword: KeywordDef | null;
  ready: boolean;
  onFilter: (name: string, value: string) => void;
  onSearch: (wd: string) => void;
}) {
  const [kw, setKw] = useState("");
  return (
    <>
      {filters.map((f) => (
        <select key={f.name} aria-label={f.label} value={values[f.name] ?? ""} disabled={!ready} onChange={(e) => onFilter(f.name, e.target.value)}>
          <option value="">全部{f.label}</option>
          {f.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      ))}
      {keyword ? (
        <form className="adm-row" onSubmit={(e) => (e.preventDefault(), onSearch(kw.trim()))}>
          <input type="search" placeholder={keyword.placeholder} value={kw} onChange={(e) => setKw(e.target.value)} aria-label="关键词" />
          <button className="adm-btn" type="submit" disabled={!ready}>搜索</button>
        </form>
      ) : null}
    </>
  );
}
