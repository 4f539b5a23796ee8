import { useCallback, useEffect, useState } from "react";
import { api } from "../api.ts";
import { Modal } from "../admin/AdminKit.tsx";
import { toast } from "../toast.ts";

interface Quota {
  questions_per_day: number; tokens_per_month: number; questions_used: number; tokens_used: number;
  questions_remaining: number; tokens_remaining: number; source: "user" | "group" | "vip" | "root";
  /** the user's own limits when the server reports them (null = inherited) */
  own?: { questions_per_day: number | null; tokens_per_month: number | null };
}
interface UserRow { id: number; username: string }

const SOURCE: Record<Quota["source"], string> = { user: "该用户的单独额度", group: "用户组", vip: "VIP 会员", root: "超级管理员（不限）" };
const n = (v: number) => v.toLocaleString("zh-CN");
const limit = (v: number) => (v === -1 ? "不限" : n(v));

function Meter({ used, max, unit }: { used: number; max: number; unit: string }) {
  const pct = max === -1 ? 0 : max === 0 ? 100 : Math.min(100, (used / max) * 100);
  return (
    <span className="adm-meter">
      <span className="adm-meter-bar"><i className={pct >= 100 ? "danger" : pct >= 80 ? "warn" : undefined} style={{ width: `${pct}%` }} /></span>
      <span>{`已用 ${n(used)} / ${limit(max)} ${unit}`}</span>
    </span>
  );
}

const toInput = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
const fromInput = (s: string): number | null | "bad" => (s.trim() === "" ? null : /^-?\d+$/.test(s.trim()) && Number(s) >= -1 ? Number(s) : "bad");

/** The user list's "AI 额度" dialog: a user's limits and usage; set their own limits or go back to inheriting. */
export default function AdminAiQuota({ event }: { event: string }) {
  const [user, setUser] = useState<UserRow | null>(null);
  const [quota, setQuota] = useState<Quota | null>(null);
  const [form, setForm] = useState({ q: "", t: "" });
  const [busy, setBusy] = useState(false);

  const fill = (d: Quota) => {
    setQuota(d);
    // Without `own`, the effective limits are the user's own ones exactly when the source says so.
    const own = d.own ?? (d.source === "user" ? d : null);
    setForm({ q: toInput(own?.questions_per_day), t: toInput(own?.tokens_per_month) });
  };
  const open = useCallback(async (row: UserRow) => {
    setUser(row);
    setQuota(null);
    const r = await api<Quota>("GET", "/user/ai/quota", { query: { user_id: row.id } });
    if (!r.ok || !r.data) {
      setUser(null);
      return toast(r.message || "加载失败", "error");
    }
    fill(r.data);
  }, []);
  useEffect(() => {
    const on = (e: Event) => void open((e as CustomEvent<UserRow>).detail);
    window.addEventListener(event, on);
    return () => window.removeEventListener(event, on);
  }, [event, open]);

  const save = async (clear: boolean) => {
    const q = clear ? null : fromInput(form.q);
    const t = clear ? null : fromInput(form.t);
    if (q === "bad" || t === "bad") return toast("额度必须是不小于 -1 的整数（-1 表示不限，留空表示继承）", "error");
    setBusy(true);
    const r = await api<Quota>("POST", "/user/ai/quota", { body: { user_id: user!.id, questions_per_day: q, tokens_per_month: t } });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "保存失败", "error");
    toast(clear ? "已恢复为继承用户组额度" : "额度已保存", "success");
    fill(r.data);
  };

  // Rendered inside the list's intro block (muted text): the dialog sets its own colour back.
  return (
    <div style={{ color: "var(--adm-text)" }}>
      <Modal open={!!user} title={user ? `AI 额度 - ${user.username}` : "AI 额度"} width={520} onClose={() => setUser(null)}>
        {!quota ? <p className="adm-muted">加载中…</p> : (
          <form className="adm-form" noValidate onSubmit={(e) => (e.preventDefault(), void save(false))}>
            <dl className="adm-kv">
              <div><dt>额度来源</dt><dd>{SOURCE[quota.source]}</dd></div>
              <div><dt>今日提问</dt><dd><Meter used={quota.questions_used} max={quota.questions_per_day} unit="次" /></dd></div>
              <div><dt>本月 Tokens</dt><dd><Meter used={quota.tokens_used} max={quota.tokens_per_month} unit="" /></dd></div>
            </dl>
            <h3 style={{ fontSize: 14, margin: "16px 0 8px" }}>单独设置该用户的额度</h3>
            <div className="adm-field">
              <label htmlFor="f-ai-q">每日提问次数</label>
              <div className="adm-control"><input id="f-ai-q" name="questions_per_day" inputMode="numeric" placeholder="留空：继承用户组 / VIP" value={form.q} onChange={(e) => setForm({ ...form, q: e.target.value })} /></div>
            </div>
            <div className="adm-field">
              <label htmlFor="f-ai-t">每月 token 额度</label>
              <div className="adm-control">
                <input id="f-ai-t" name="tokens_per_month" inputMode="numeric" placeholder="留空：继承用户组 / VIP" value={form.t} onChange={(e) => setForm({ ...form, t: e.target.value })} />
                <p className="adm-help">-1 表示不限，0 表示不能使用 AI；超级管理员始终不限。</p>
              </div>
            </div>
            <div className="adm-form-actions">
              <button type="button" className="adm-btn" disabled={busy} onClick={() => void save(true)}>清除（继承）</button>
              <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "保存中…" : "保存"}</button>
            </div>
          </form>
        )}
      </Modal>
    </div>
  );
}
