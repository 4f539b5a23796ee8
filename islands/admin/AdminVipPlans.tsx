import { useState } from "react";
import { formatPrice } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { FieldInput, FormRow, missingRequired, Modal, type FieldDef } from "./AdminKit.tsx";
import { useHydrated } from "./useHydrated.ts";

export interface VipPlanRow {
  id: number; title: string; months: number; price: number; original_price: number; benefits: string; enable: boolean; sort: number;
}
export interface AdminVipPlansProps { initial: VipPlanRow[] }

const FIELDS: FieldDef[] = [
  { name: "title", label: "套餐名称", kind: "text", required: true, maxLength: 64, placeholder: "如 月度 VIP" },
  { name: "months", label: "时长（月）", kind: "number", required: true, help: "每购买一份延长的月数：月度 1，季度 3，年度 12" },
  { name: "price", label: "价格（元）", kind: "text", required: true, placeholder: "如 15.00", help: "最多两位小数" },
  { name: "original_price", label: "原价（元）", kind: "text", placeholder: "留空或 0 表示不显示原价", help: "高于价格时在购买页划线显示" },
  { name: "benefits", label: "权益说明", kind: "textarea", maxLength: 2000, placeholder: "每行一条，如：付费文档免费下载", help: "每行一条，显示在购买页的套餐卡片上" },
  { name: "enable", label: "启用", kind: "switch" },
  { name: "sort", label: "排序", kind: "number", help: "数值大的排在前面" },
];

/** "15" / "15.5" / "15.00" (元) → 1500 fen; anything else (more decimals, signs, letters) → null. */
function fenOf(text: unknown): number | null {
  const m = /^(\d{1,8})(?:\.(\d{0,2}))?$/.exec(String(text ?? "").trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
}

const blank = { title: "", months: 1, price: "", original_price: "", benefits: "", enable: true, sort: 0 };

function PlanForm({ row, onSaved, onCancel }: { row: VipPlanRow | null; onSaved: () => void; onCancel: () => void }) {
  const [v, setV] = useState<Record<string, unknown>>(() => row
    ? { ...row, price: formatPrice(row.price), original_price: row.original_price ? formatPrice(row.original_price) : "" }
    : blank);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const missing = missingRequired(FIELDS, v);
    if (missing) return toast(missing, "error");
    const months = Number(v.months);
    if (!Number.isInteger(months) || months < 1 || months > 120) return toast("时长必须是 1–120 之间的整数（月）", "error");
    const price = fenOf(v.price);
    if (price === null || price <= 0) return toast("价格格式不正确：请输入大于 0 的金额，最多两位小数", "error");
    const original = String(v.original_price ?? "").trim() === "" ? 0 : fenOf(v.original_price);
    if (original === null) return toast("原价格式不正确：最多两位小数", "error");
    const sort = v.sort === "" || v.sort === undefined ? 0 : Number(v.sort);
    if (!Number.isInteger(sort)) return toast("排序必须是整数", "error");
    const body = { title: String(v.title).trim(), months, price, original_price: original, benefits: String(v.benefits ?? "").trim(), enable: !!v.enable, sort };
    setBusy(true);
    const r = row ? await api("PUT", "/vip", { body: { id: row.id, ...body } }) : await api("POST", "/vip", { body });
    setBusy(false);
    if (!r.ok) return toast(r.message || "保存失败", "error");
    toast("保存成功", "success");
    onSaved();
  };
  return (
    <form className="adm-form" onSubmit={submit} noValidate>
      {FIELDS.map((f) => (
        <FormRow key={f.name} f={f}>
          {f.name === "price" || f.name === "original_price"
            ? <div className="adm-row adm-money"><span aria-hidden="true">¥</span><FieldInput f={f} value={v[f.name]} onChange={(x) => setV((s) => ({ ...s, [f.name]: x }))} /></div>
            : <FieldInput f={f} value={v[f.name]} onChange={(x) => setV((s) => ({ ...s, [f.name]: x }))} />}
        </FormRow>
      ))}
      <div className="adm-form-actions">
        <button type="button" className="adm-btn" onClick={onCancel}>取消</button>
        <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "保存中…" : "保存"}</button>
      </div>
    </form>
  );
}

/** /admin/user/vip: the VIP plans; prices are typed in 元 and stored in fen. */
export default function AdminVipPlans({ initial }: AdminVipPlansProps) {
  const [rows, setRows] = useState(initial);
  const [editing, setEditing] = useState<VipPlanRow | "new" | null>(null);
  const [deleting, setDeleting] = useState<VipPlanRow | null>(null);
  const ready = useHydrated();

  const load = async () => {
    const r = await api<{ total: number; vip: VipPlanRow[] }>("GET", "/vip/list", { query: { size: 1000 } });
    if (!r.ok || !r.data) return toast(r.message || "加载失败", "error");
    setRows(r.data.vip);
  };
  const toggle = async (row: VipPlanRow) => {
    const r = await api("PUT", "/vip", { body: { id: row.id, enable: !row.enable } });
    if (!r.ok) return toast(r.message || "操作失败", "error");
    toast(row.enable ? "已禁用" : "已启用", "success");
    void load();
  };
  const remove = async () => {
    const row = deleting!;
    setDeleting(null);
    const r = await api("DELETE", "/vip", { query: { id: row.id } });
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("删除成功", "success");
    void load();
  };

  return (
    <div className="adm-table-wrap">
      <div className="adm-toolbar">
        <span className="adm-muted">{`共 ${rows.length} 个套餐，启用 ${rows.filter((r) => r.enable).length} 个`}</span>
        <span className="adm-spacer" />
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready} onClick={() => setEditing("new")}>新增套餐</button>
      </div>
      <div className="adm-scroll">
        <table className="adm-table">
          <thead>
            <tr><th style={{ width: 60 }}>ID</th><th>套餐名称</th><th>时长</th><th>价格</th><th>原价</th><th>权益</th><th style={{ width: 70 }}>启用</th><th style={{ width: 70 }}>排序</th><th className="adm-actions-col">操作</th></tr>
          </thead>
          <tbody>
            {rows.length ? rows.map((r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td className="adm-nowrap">{r.title}</td>
                <td className="adm-nowrap">{`${r.months} 个月`}</td>
                <td className="adm-nowrap adm-num"><b>{`¥${formatPrice(r.price)}`}</b></td>
                <td className="adm-nowrap adm-num">{r.original_price ? <s className="adm-muted">{`¥${formatPrice(r.original_price)}`}</s> : <span className="adm-muted">—</span>}</td>
                <td><span className="adm-ellipsis" style={{ maxWidth: 260 }} title={r.benefits}>{r.benefits.split("\n").filter(Boolean).join("、") || <span className="adm-muted">—</span>}</span></td>
                <td><button type="button" className={r.enable ? "adm-toggle on" : "adm-toggle"} role="switch" aria-checked={r.enable} aria-label={`启用：${r.title}`} disabled={!ready} onClick={() => void toggle(r)} /></td>
                <td>{r.sort}</td>
                <td className="adm-actions-col">
                  <button type="button" className="adm-link" disabled={!ready} onClick={() => setEditing(r)}>编辑</button>
                  <button type="button" className="adm-link adm-danger" disabled={!ready} onClick={() => setDeleting(r)}>删除</button>
                </td>
              </tr>
            )) : <tr><td colSpan={9} className="adm-empty">还没有 VIP 套餐</td></tr>}
          </tbody>
        </table>
      </div>
      <Modal open={!!editing} title={editing === "new" ? "新增套餐" : "编辑套餐"} onClose={() => setEditing(null)}>
        {editing ? <PlanForm row={editing === "new" ? null : editing} onCancel={() => setEditing(null)} onSaved={() => (setEditing(null), void load())} /> : null}
      </Modal>
      <Modal open={!!deleting} title="确认删除" width={420} onClose={() => setDeleting(null)}>
        <p>{`确定删除套餐「${deleting?.title ?? ""}」吗？`}已购买的会员不受影响，删除后不可恢复；只想暂停销售可以关闭「启用」。</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setDeleting(null)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </div>
  );
}
