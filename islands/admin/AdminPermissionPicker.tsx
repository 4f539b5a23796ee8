import { useCallback, useEffect, useState } from "react";
import { api } from "../api.ts";
import { Modal } from "./AdminKit.tsx";
import { toast } from "../toast.ts";

interface Perm { id: number; title: string; method: string; path: string }
interface Category { category: string; label: string; page: string; permissions: Perm[] }
interface Group { id: number; title: string }

export interface AdminPermissionPickerProps {
  categories: Category[];
  /** window event (from the group table's row button) whose detail is the group to edit */
  event: string;
}

const ADMIN_GROUP_ID = 1;

/** One category: a check-all box (indeterminate when partly checked) over its permissions. */
function CategoryBox({ c, checked, onChange }: { c: Category; checked: Set<number>; onChange: (ids: number[], on: boolean) => void }) {
  const ids = c.permissions.map((p) => p.id);
  const count = ids.filter((id) => checked.has(id)).length;
  const all = count === ids.length;
  return (
    <fieldset className="adm-perm-cat">
      <legend>
        <label className="adm-check-opt">
          <input type="checkbox" checked={all} ref={(el) => { if (el) el.indeterminate = count > 0 && !all; }} onChange={() => onChange(ids, !all)} aria-label={`全选${c.label}`} />
          <strong>{c.label}</strong>
        </label>
        <span className="adm-muted">{count}/{ids.length}{c.page ? <> · 页面 <code>{c.page}</code></> : null}</span>
      </legend>
      <div className="adm-checks">
        {c.permissions.map((p) => (
          <label key={p.id} className="adm-check-opt" title={`${p.method} ${p.path}`}>
            <input type="checkbox" checked={checked.has(p.id)} onChange={() => onChange([p.id], !checked.has(p.id))} />
            <span>{p.title}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The permission picker of the group screen: opened by a row's 权限 button, it loads the group's
 * permissions, lets the admin tick them by category and saves them with PUT /group/permission.
 */
export default function AdminPermissionPicker({ categories, event }: AdminPermissionPickerProps) {
  const [group, setGroup] = useState<Group | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const open = async (e: Event) => {
      const g = (e as CustomEvent<Group>).detail;
      setGroup({ id: g.id, title: g.title });
      setChecked(new Set());
      if (g.id === ADMIN_GROUP_ID) return;
      setLoading(true);
      const r = await api<{ permission_id: number[] }>("GET", "/group/permission", { query: { id: g.id } });
      setLoading(false);
      if (!r.ok || !r.data) return toast(r.message || "加载权限失败", "error");
      setChecked(new Set(r.data.permission_id));
    };
    window.addEventListener(event, open);
    return () => window.removeEventListener(event, open);
  }, [event]);

  const close = useCallback(() => setGroup(null), []);
  const change = (ids: number[], on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });
  const save = async () => {
    if (!group) return;
    setBusy(true);
    const r = await api("PUT", "/group/permission", { body: { id: group.id, permission_id: [...checked] } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "保存失败", "error");
    toast("权限已保存", "success");
    close();
  };
  const total = categories.reduce((n, c) => n + c.permissions.length, 0);

  return (
    <Modal open={!!group} title={group ? `设置权限：${group.title}` : "设置权限"} width={820} onClose={close}>
      {group?.id === ADMIN_GROUP_ID ? (
        <p>超级管理员分组拥有全部权限，无需设置。</p>
      ) : (
        <div className="adm-perm">
          <div className="adm-toolbar">
            <span className="adm-muted">已选 {checked.size} / {total} 项；勾选某个分类下的任一权限，该分类的后台页面即出现在成员的菜单中。</span>
            <span className="adm-spacer" />
            <button type="button" className="adm-btn adm-btn-sm" disabled={loading} onClick={() => change(categories.flatMap((c) => c.permissions.map((p) => p.id)), true)}>全选</button>
            <button type="button" className="adm-btn adm-btn-sm" disabled={loading} onClick={() => setChecked(new Set())}>清空</button>
          </div>
          {loading ? <p className="adm-muted">加载中…</p> : categories.map((c) => <CategoryBox key={c.category} c={c} checked={checked} onChange={change} />)}
          <div className="adm-form-actions">
            <button type="button" className="adm-btn" onClick={close}>取消</button>
            <button type="button" className="adm-btn adm-btn-primary" disabled={busy || loading} onClick={() => void save()}>{busy ? "保存中…" : "保存"}</button>
          </div>
        </div>
      )}
    </Modal>
  );
}
