// Mobile number + SMS code form for login, register and find-password (spec §2/§7). The login and
// register pages embed it as their mobile tab; /findpassword-mobile uses it on its own.
import { useEffect, useState } from "react";
import { isMobile } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { CaptchaField, useCaptcha } from "./CaptchaField.tsx";
import { SmsCodeButton } from "./SmsCodeButton.tsx";
import { flashThenGo, toast } from "../toast.ts";

export interface MobileCodeFormProps {
  mode: "login" | "register" | "findpassword";
  /** resend interval in seconds (sms.resend_interval) */
  interval: number;
  codeLength: number;
  /** where to go after success; find-password defaults to /login, the others to / */
  redirect?: string;
  /** whether the site asks for an image captcha before sending a code for this purpose */
  captcha?: boolean;
}

const TYPE = { register: 0, login: 1, findpassword: 2 } as const;
const PATH = { register: "/user/register/mobile", login: "/user/login/mobile", findpassword: "/user/findpassword/mobile" } as const;
const SUBMIT = { register: "注册", login: "登录", findpassword: "重置密码" } as const;
const CAPTCHA = { register: "register", login: "login", findpassword: "find_password" } as const;

export default function MobileCodeForm({ mode, interval, codeLength, redirect, captcha = false }: MobileCodeFormProps) {
  const [f, setF] = useState({ mobile: "", code: "", username: "", password: "", confirm: "" });
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const cap = useCaptcha(CAPTCHA[mode], captcha);
  useEffect(() => setReady(true), []);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });
  const withPassword = mode !== "login";
  const pwLabel = mode === "findpassword" ? "新密码" : "密码";

  const check = (): string | null => {
    if (!f.mobile.trim()) return "请输入手机号码";
    if (!isMobile(f.mobile.trim())) return "请输入正确的手机号码";
    if (!f.code.trim()) return "请输入短信验证码";
    if (!withPassword) return null;
    if (!f.password) return `请输入${pwLabel}`;
    if (f.password.length < 6) return `${pwLabel}至少 6 位`;
    if (!f.confirm) return `请再次输入${pwLabel}`;
    if (f.password !== f.confirm) return "两次输入的密码不一致";
    return null;
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problem = check();
    if (problem) return toast(problem, "error");
    const body: Record<string, string> = { mobile: f.mobile.trim(), code: f.code.trim() };
    if (withPassword) body.password = f.password;
    if (mode === "register" && f.username.trim()) body.username = f.username.trim();
    setBusy(true);
    const r = await api<{ message?: string }>("POST", PATH[mode], { body });
    setBusy(false);
    if (!r.ok) return toast(r.message || `${SUBMIT[mode]}失败`, "error");
    if (mode === "findpassword") return flashThenGo(r.data?.message || "密码重置成功，请使用新密码登录", redirect || "/login");
    location.href = redirect || "/";
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <label className="field">
        <span>手机号码</span>
        <input name="mobile" type="tel" inputMode="numeric" autoComplete="tel" maxLength={11} value={f.mobile} onChange={set("mobile")} placeholder="请输入手机号码" />
      </label>
      <CaptchaField c={cap} />
      <div className="field">
        <span id={`sms-code-${mode}`}>短信验证码</span>
        <div style={{ display: "flex", gap: 8 }}>
          <input aria-labelledby={`sms-code-${mode}`} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={codeLength} value={f.code} onChange={set("code")} placeholder={`${codeLength} 位数字验证码`} />
          <SmsCodeButton mobile={f.mobile} type={TYPE[mode]} interval={interval} ready={ready} captcha={cap} />
        </div>
      </div>
      {mode === "register" ? (
        <label className="field">
          <span>用户名（选填）</span>
          <input name="username" autoComplete="username" maxLength={32} value={f.username} onChange={set("username")} placeholder="不填则自动生成" />
        </label>
      ) : null}
      {withPassword ? (
        <>
          <label className="field">
            <span>{pwLabel}</span>
            <input name="password" type="password" autoComplete="new-password" maxLength={128} value={f.password} onChange={set("password")} placeholder={`请输入${pwLabel}（至少 6 位）`} />
          </label>
          <label className="field">
            <span>确认{pwLabel}</span>
            <input name="confirm_password" type="password" autoComplete="new-password" maxLength={128} value={f.confirm} onChange={set("confirm")} placeholder={`请再次输入${pwLabel}`} />
          </label>
        </>
      ) : null}
      <button className="btn btn-primary btn-block" type="submit" disabled={!ready || busy}>{busy ? "提交中…" : SUBMIT[mode]}</button>
    </form>
  );
}
