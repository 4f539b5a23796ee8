import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { CaptchaField, useCaptcha } from "./CaptchaField.tsx";
import { toast } from "../toast.ts";

/** The login API takes JSON, so the button stays disabled until hydration rather than posting a dead form. */
export default function LoginForm({ redirect, captcha = false }: { redirect: string; captcha?: boolean }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const cap = useCaptcha("login", captcha);
  useEffect(() => setReady(true), []);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!username.trim()) return toast("请输入登录用户名", "error");
    if (!password) return toast("请输入密码", "error");
    if (cap.enabled && !cap.value.trim()) return toast("请输入验证码", "error");
    setBusy(true);
    const r = await api("POST", "/user/login", { body: { username: username.trim(), password, ...cap.payload() } });
    setBusy(false);
    if (!r.ok) {
      void cap.refresh();
      return toast(r.message || "登录失败", "error");
    }
    location.href = redirect;
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <label className="field">
        <span>用户名</span>
        <input name="username" autoComplete="username" maxLength={64} value={username} onChange={(e) => setUsername(e.target.value)} placeholder="请输入登录用户名" />
      </label>
      <label className="field">
        <span>密码</span>
        <input name="password" type="password" autoComplete="current-password" maxLength={128} value={password} onChange={(e) => setPassword(e.target.value)} placeholder="请输入密码" />
      </label>
      <CaptchaField c={cap} />
      <button className="btn btn-primary btn-block" type="submit" disabled={!ready || busy}>{busy ? "登录中…" : "登录"}</button>
    </form>
  );
}
