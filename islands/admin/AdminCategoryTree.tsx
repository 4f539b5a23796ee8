import { useState } from "react";
import { useHydrated } from "./useHydrated.ts";
import { SECTIONS } from "#src/features/site/sections.ts";
import { api } from "../api.ts";
import { EditorForm } from "./AdminEditor.tsx";
import { Modal, type FieldDef } from "./AdminKit.tsx";
import { toast } from "../toast.ts";

export interface CategoryRow { id: number; parent_id: number; title: string; type: number; icon: string; cover: string; doc_count: number; sort: number; enable: boolean; description: string; show_description: boolean }
export interface AdminCategoryTreeProps { type: 0 | 1; initial: CategoryRow[] }
type Flat = CategoryRow & { depth: number; kids: number };

/** Depth-first order under each parent (rows arrive sorted by sort, id); orphans are listed last at depth 0. */
function flatten(rows: CategoryRow[]): Flat[] {
  const ids = new Set(rows.map((r) => r.id));
  const out: Flat[] = [];
  const seen = new Set<number>();
  const walk = (parent: number, depth: number) => {
    for (const r of rows) {
      if (r.parent_id !== parent || seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ ...r, depth, kids: rows.filter((k) => k.parent_id === r.id).length });
      walk(r.id, depth + 1);
    }
  };
  walk(0, 0);
  for (const r of rows) if (!seen.has(r.id) && !ids.has(r.parent_id)) (seen.add(r.id), out.push({ ...r, depth: 0, kids: 0 }));
  return out;
}

const below = (rows: CategoryRow[], id: number) => {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) if (!out.has(r.id) && out.has(r.parent_id)) (out.add(r.id), (grew = true));
  }
  return out;
};

export default function AdminCategoryTree({ type, initial }: AdminCategoryTreeProps) {
  const [rows, setRows] = useState(initial);
  const [editing, setEditing] = useState<{ row: CategoryRow | null; parent: number } | null>(null);
  const [deleting, setDeleting] = useState<CategoryRow | null>(null);
  const [folded, setFolded] = useState<Set<number>>(new Set());
  const ready = useHydrated();
  const load = async () => {
    const r = await api<{ category: CategoryRow[] }>("GET", "/category/list", { query: { type } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.category);
  };
  const put = async (body: Record<string, unknown>, ok: string) => {
    const r = await api("PUT", "/category", { body });
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(ok, "success");
    void load();
  };
  const remove = async () => {
    const r = await api("DELETE", "/category", { query: { id: [deleting!.id] } });
    setDeleting(null);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    void load();
  };
  const flat = flatten(rows);
  const hidden = new Set<number>();
  for (const r of flat) if (folded.has(r.parent_id) || hidden.has(r.parent_id)) hidden.add(r.id);
  const shown = flat.filter((r) => !hidden.has(r.id));
  // Parent choices: the whole tree indented, minus the edited row and everything below it.
  const banned = editing?.row ? below(rows, editing.row.id) : new Set<number>();
  const parentOptions = [{ value: 0, label: "无（顶级分类）" }, ...flat.filter((r) => !banned.has(r.id)).map((r) => ({ value: r.id, label: `${"　".repeat(r.depth)}${r.title}` }))];
  const fields: FieldDef[] = [
    { name: "title", label: "分类名称", kind: "text", required: true, maxLength: 64 },
    { name: "parent_id", label: "上级分类", kind: "select", options: parentOptions },
    { name: "type", label: "分类类型", kind: "select", options: [{ value: 0, label: "文档分类" }, { value: 1, label: "文章分类" }], disabled: true },
    { name: "cover", label: "封面", kind: "image", upload: "category", help: "首页分类模块与分类页展示，建议 3:1 横图" },
    { name: "icon", label: "图标", kind: "image", upload: "category", help: "可选，显示在分类名称前的小图标" },
    { name: "sort", label: "排序", kind: "number", help: "数字越小越靠前" },
    { name: "enable", label: "启用", kind: "switch" },
    { name: "show_description", label: "显示描述", kind: "switch", help: "在分类页标题下显示描述" },
    { name: "description", label: "描述", kind: "textarea", maxLength: 500 },
  ];
  const defaults = { title: "", parent_id: editing?.parent ?? 0, type, cover: "", icon: "", sort: 0, enable: true, show_description: false, description: "" };
  const fold = (id: number) => setFolded((f) => { const n = new Set(f); n.has(id) ? n.delete(id) : n.add(id); return n; });

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <span className="adm-muted">共 {rows.length} 个分类。排序值越小越靠前，修改后离开输入框即保存。</span>
        <span className="adm-spacer" />
        <button type="button" className="adm-btn" disabled={!ready} onClick={() => setFolded(folded.size ? new Set() : new Set(flat.filter((r) => r.kids).map((r) => r.id)))}>{folded.size ? "全部展开" : "全部折叠"}</button>
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready} onClick={() => setEditing({ row: null, parent: 0 })}>新增分类</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table adm-tree">
          <thead>
            <tr><th>分类名称</th><th style={{ width: 60 }}>ID</th><th style={{ width: 80 }}>封面</th><th style={{ width: 80 }}>文档数</th><th style={{ width: 96 }}>排序</th><th style={{ width: 70 }}>启用</th><th className="adm-actions-col">操作</th></tr>
          </thead>
          <tbody>
            {shown.length ? shown.map((r) => (
              <tr key={r.id} data-id={r.id}>
                <td>
                  <span style={{ display: "inline-flex", alignItems: "center", gap: 6, paddingLeft: r.depth * 24 }}>
                    {r.kids ? <button type="button" className="adm-link" aria-expanded={!folded.has(r.id)} aria-label={`${folded.has(r.id) ? "展开" : "折叠"} ${r.title}`} onClick={() => fold(r.id)}>{folded.has(r.id) ? "▸" : "▾"}</button> : <span style={{ width: 16 }} aria-hidden="true" />}
                    {r.icon ? <img src={r.icon} alt="" width={20} height={20} /> : null}
                    {/* Article categories have no public page until the articles section exists. */}
                    {type === 0 || SECTIONS.articles ? <a href={type === 0 ? `/category/${r.id}` : `/article?category_id=${r.id}`} target="_blank" rel="noopener">{r.title}</a> : <span>{r.title}</span>}
                  </span>
                </td>
                <td>{r.id}</td>
                <td>{r.cover ? <img className="adm-thumb-sm" src={r.cover} alt="" /> : <span className="adm-muted">—</span>}</td>
                <td>{r.doc_count}</td>
                <td>
                  <input type="number" aria-label={`排序：${r.title}`} defaultValue={r.sort} key={`${r.id}-${r.sort}`} style={{ width: 72 }} disabled={!ready}
                    onBlur={(e) => { const v = Number(e.target.value); if (e.target.value !== "" && Number.isInteger(v) && v !== r.sort) void put({ id: r.id, sort: v }, "排序已保存"); }} />
                </td>
                <td><button type="button" className={r.enable ? "adm-toggle on" : "adm-toggle"} role="switch" aria-checked={r.enable} aria-label={`启用：${r.title}`} disabled={!ready} onClick={() => void put({ id: r.id, enable: !r.enable }, r.enable ? "已禁用" : "已启用")} /></td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => setEditing({ row: null, parent: r.id })}>添加子分类</button>
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => setEditing({ row: r, parent: r.parent_id })}>编辑</button>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting(r)}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={7} className="adm-empty">还没有分类，点击「新增分类」添加第一个。</td></tr>}
          </tbody>
        </table>
      </div>
      <Modal open={!!editing} title={editing?.row ? "编辑分类" : "新增分类"} onClose={() => setEditing(null)}>
        {editing ? <EditorForm entity="category" fields={fields} row={editing.row as Record<string, unknown> | null} defaults={defaults} onCancel={() => setEditing(null)} onSaved={() => (setEditing(null), void load())} /> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>确定删除分类「{deleting?.title}」吗？有子分类或文档的分类不能删除。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
