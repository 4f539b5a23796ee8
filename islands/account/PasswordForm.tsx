import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

/** Spec §2 password form: username read-only, old, new, confirm, with the §5 messages. */
export default function PasswordForm({ id, username }: { id: number; username: string }) {
  const [f, setF] = useState({ old: "", next: "", confirm: "" });
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!f.old) return toast("请输入旧密码", "error");
    if (!f.next) return toast("请输入新密码", "error");
    if (!f.confirm) return toast("请再次输入新密码", "error");
    if (f.next !== f.confirm) return toast("两次输入的密码不一致", "error");
    if (f.next.length < 6) return toast("新密码至少 6 位", "error");
    setBusy(true);
    // The server ends every session and sets a fresh cookie on this response: nothing else to do.
    const r = await api("PUT", "/user/password", { body: { id, old_password: f.old, new_password: f.next } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "修改失败", "error");
    setF({ old: "", next: "", confirm: "" });
    toast("密码修改成功", "success");
  };
  return (
    <form className="form form-narrow" onSubmit={submit} noValidate>
      <label className="field">
        <span>用户名</span>
        <input name="username" autoComplete="username" value={username} readOnly disabled />
      </label>
      <label className="field">
        <span>旧密码</span>
        <input name="old_password" type="password" autoComplete="current-password" maxLength={128} value={f.old} onChange={set("old")} placeholder="请输入旧密码" />
      </label>
      <label className="field">
        <span>新密码</span>
        <input name="new_password" type="password" autoComplete="new-password" maxLength={64} value={f.next} onChange={set("next")} placeholder="请输入新密码（6-64 位）" />
      </label>
      <label className="field">
        <span>确认新密码</span>
        <input name="confirm_password" type="password" autoComplete="new-password" maxLength={64} value={f.confirm} onChange={set("confirm")} placeholder="请再次输入新密码" />
      </label>
      <div><button className="btn btn-primary" type="submit" disabled={!ready || busy}>{busy ? "提交中…" : "修改密码"}</button></div>
    </form>
  );
}
