// The "获取验证码" button with its resend countdown; shared by the mobile forms (not an island itself).
import { useState } from "react";
import { useCountdown } from "./useCountdown.ts";
import { isMobile } from "#src/lib/format.ts";
import { api } from "../api.ts";
import type { Captcha } from "./CaptchaField.tsx";
import { toast } from "../toast.ts";

export interface SmsCodeButtonProps {
  mobile: string;
  /** 0 register, 1 login, 2 find password (spec §3) */
  type: 0 | 1 | 2;
  /** seconds before another code may be asked for; the server's answer wins when it has one */
  interval: number;
  ready: boolean;
  /** the image captcha guarding the send, when the site requires one for this purpose */
  captcha?: Captcha;
}

export function SmsCodeButton({ mobile, type, interval, ready, captcha }: SmsCodeButtonProps) {
  const [left, setLeft] = useCountdown();
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!isMobile(mobile.trim())) return toast("请输入正确的手机号码", "error");
    if (captcha?.enabled && !captcha.value.trim()) return toast("请输入验证码", "error");
    setBusy(true);
    const r = await api<{ message: string; interval?: number }>("POST", "/sms", { body: { mobile: mobile.trim(), type, ...captcha?.payload() } });
    setBusy(false);
    // A captcha is good for one check, whatever the answer was.
    if (captcha?.enabled) void captcha.refresh();
    if (!r.ok) return toast(r.message || "验证码发送失败", "error");
    toast(r.data?.message || "短信验证码已发送，请注意查收", "success");
    setLeft(Number(r.data?.interval) || interval);
  };
  return (
    <button type="button" className="btn" style={{ flex: "0 0 auto", minWidth: 124, height: 40 }} disabled={!ready || busy || left > 0} onClick={() => void send()} data-testid="sms-send">
      {left > 0 ? `${left} 秒后重新获取` : busy ? "发送中…" : "获取验证码"}
    </button>
  );
}
