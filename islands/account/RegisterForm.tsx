import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { CaptchaField, useCaptcha } from "./CaptchaField.tsx";
import { EmailCodeButton } from "./EmailCodeButton.tsx";
import { flashThenGo, toast } from "../toast.ts";

export interface RegisterFormProps {
  redirect: string;
  captcha: boolean;
  /** security.enable_verify_register_email: e-mail and its code are required */
  verifyEmail: boolean;
  /** footer.agreement link; when set the user must accept it */
  agreement: string;
}

const USERNAME = /^[A-Za-z0-9_\u4e00-\u9fa5]+$/;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
type Fields = { username: string; email: string; code: string; password: string; confirm: string };

function problem(f: Fields, verifyEmail: boolean): string | null {
  const name = f.username.trim();
  if (!name) return "请输入用户名";
  if (name.length < 2 || name.length > 64) return "用户名长度为 2-64 个字符";
  if (!USERNAME.test(name)) return "用户名只能包含字母、数字、下划线和汉字";
  if (verifyEmail && !f.email.trim()) return "请输入邮箱";
  if (f.email.trim() && !EMAIL.test(f.email.trim())) return "请输入正确的邮箱";
  if (verifyEmail && !f.code.trim()) return "请输入邮箱验证码";
  if (!f.password) return "请输入密码";
  if (f.password.length < 6 || f.password.length > 64) return "密码长度为 6-64 个字符";
  if (!f.confirm) return "请再次输入密码";
  if (f.password !== f.confirm) return "两次输入的密码不一致";
  return null;
}

export default function RegisterForm({ redirect, captcha, verifyEmail, agreement }: RegisterFormProps) {
  const [f, setF] = useState<Fields>({ username: "", email: "", code: "", password: "", confirm: "" });
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const cap = useCaptcha("register", captcha);
  useEffect(() => setReady(true), []);
  const set = (k: keyof Fields) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const bad = problem(f, verifyEmail) ?? (cap.enabled && !cap.value.trim() ? "请输入验证码" : null) ?? (agreement && !agreed ? "请先阅读并同意用户协议" : null);
    if (bad) return toast(bad, "error");
    setBusy(true);
    const body = { username: f.username.trim(), password: f.password, email: f.email.trim(), ...(verifyEmail ? { code: f.code.trim() } : {}), ...cap.payload() };
    const r = await api("POST", "/user/register", { body });
    setBusy(false);
    if (!r.ok) {
      void cap.refresh();
      return toast(r.message || "注册失败", "error");
    }
    flashThenGo("注册成功", redirect);
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <label className="field">
        <span>用户名</span>
        <input name="username" autoComplete="username" maxLength={64} value={f.username} onChange={set("username")} placeholder="2-64 位字母、数字、下划线或汉字" />
      </label>
      <label className="field">
        <span>邮箱{verifyEmail ? "" : "（选填）"}</span>
        <input name="email" type="email" autoComplete="email" maxLength={254} value={f.email} onChange={set("email")} placeholder="用于找回密码" />
      </label>
      {verifyEmail ? (
        <div className="field">
          <span id="register-code">邮箱验证码</span>
          <div className="captcha-row">
            <input aria-labelledby="register-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={f.code} onChange={set("code")} placeholder="6 位数字验证码" />
            <EmailCodeButton email={f.email} type={0} ready={ready} />
          </div>
        </div>
      ) : null}
      <label className="field">
        <span>密码</span>
        <input name="password" type="password" autoComplete="new-password" maxLength={64} value={f.password} onChange={set("password")} placeholder="6-64 位密码" />
      </label>
      <label className="field">
        <span>确认密码</span>
        <input name="confirm_password" type="password" autoComplete="new-password" maxLength={64} value={f.confirm} onChange={set("confirm")} placeholder="请再次输入密码" />
      </label>
      <CaptchaField c={cap} />
      {agreement ? (
        <label className="check">
          <input type="checkbox" name="agreement" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
          <span>我已阅读并同意<a href={agreement} target="_blank" rel="noopener">《用户协议》</a></span>
        </label>
      ) : null}
      <button className="btn btn-primary btn-block" type="submit" disabled={!ready || busy}>{busy ? "注册中…" : "注册"}</button>
    </form>
  );
}
