import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { CaptchaField, useCaptcha } from "./CaptchaField.tsx";
import { flashThenGo, toast } from "../toast.ts";

export interface FindPasswordFormProps {
  /** present when the page was opened from the e-mailed link: step two */
  token: string;
  email: string;
  /** whether the site has e-mail switched on; step one cannot work without it */
  enabled: boolean;
  /** security.enable_captcha_find_password: step one carries a captcha */
  captcha: boolean;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

function StepOne({ enabled, captcha }: { enabled: boolean; captcha: boolean }) {
  const [email, setEmail] = useState("");
  const cap = useCaptcha("find_password", captcha && enabled);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [sentTo, setSentTo] = useState("");
  useEffect(() => setReady(true), []);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value) return toast("请输入邮箱", "error");
    if (!EMAIL.test(value)) return toast("请输入正确的邮箱", "error");
    if (cap.enabled && !cap.value.trim()) return toast("请输入验证码", "error");
    setBusy(true);
    const r = await api("POST", "/user/findpassword/stepone", { body: { email: value, ...cap.payload() } });
    setBusy(false);
    // A captcha is good for one check only, whatever the outcome.
    void cap.refresh();
    if (!r.ok) return toast(r.message || "发送失败", "error");
    setSentTo(value);
  };
  if (!enabled) return <p className="muted">网站未开启邮件服务，暂时无法通过邮箱找回密码，请联系网站管理员。</p>;
  if (sentTo) {
    return (
      <div className="form" role="status">
        <p style={{ margin: 0, fontSize: 16 }}><strong>已发送，请查收邮件</strong></p>
        <p className="muted" style={{ margin: 0 }}>重置密码的链接已发送到 {sentTo}，请打开邮件中的链接设置新密码。没有收到？请检查垃圾邮件，或稍后重新发送。</p>
        <button type="button" className="btn btn-block" onClick={() => setSentTo("")}>重新发送</button>
      </div>
    );
  }
  return (
    <form className="form" onSubmit={submit} noValidate>
      <label className="field">
        <span>邮箱</span>
        <input name="email" type="email" autoComplete="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} placeholder="请输入注册时使用的邮箱" />
      </label>
      <CaptchaField c={cap} />
      <button className="btn btn-primary btn-block" type="submit" disabled={!ready || busy}>{busy ? "发送中…" : "发送重置邮件"}</button>
    </form>
  );
}

function StepTwo({ token, email }: { token: string; email: string }) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!password) return toast("请输入新密码", "error");
    if (password.length < 6) return toast("新密码至少 6 位", "error");
    if (!repeat) return toast("请再次输入新密码", "error");
    if (password !== repeat) return toast("两次输入的密码不一致", "error");
    setBusy(true);
    const r = await api("PUT", "/user/findpassword/steptwo", { body: { email, token, password } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "重置失败", "error");
    flashThenGo("密码重置成功", "/login");
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <label className="field">
        <span>邮箱</span>
        <input name="email" type="email" value={email} readOnly disabled />
      </label>
      <label className="field">
        <span>新密码</span>
        <input name="password" type="password" autoComplete="new-password" maxLength={128} value={password} onChange={(e) => setPassword(e.target.value)} placeholder="请输入新密码（至少 6 位）" />
      </label>
      <label className="field">
        <span>确认密码</span>
        <input name="repeat_password" type="password" autoComplete="new-password" maxLength={128} value={repeat} onChange={(e) => setRepeat(e.target.value)} placeholder="请再次输入新密码" />
      </label>
      <button className="btn btn-primary btn-block" type="submit" disabled={!ready || busy}>{busy ? "提交中…" : "重置密码"}</button>
    </form>
  );
}

/** /findpassword: step one asks for the address; the e-mailed link (?token=…&email=…) opens step two. */
export default function FindPasswordForm({ token, email, enabled, captcha }: FindPasswordFormProps) {
  return token && email ? <StepTwo token={token} email={email} /> : <StepOne enabled={enabled} captcha={captcha} />;
}
