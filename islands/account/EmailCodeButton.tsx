// "获取验证码" for an e-mail address, with the resend countdown (shared piece, not an island).
import { useState } from "react";
import { useCountdown } from "./useCountdown.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** type: 0 register, 2 find password, 3 verify (POST /user/email/code). */
export function EmailCodeButton({ email, type, ready }: { email: string; type: 0 | 2 | 3; ready: boolean }) {
  const [left, setLeft] = useCountdown();
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!email.trim()) return toast("请输入邮箱", "error");
    if (!EMAIL.test(email.trim())) return toast("请输入正确的邮箱", "error");
    setBusy(true);
    const r = await api<{ message: string; interval?: number }>("POST", "/user/email/code", { body: { email: email.trim(), type } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "验证码发送失败", "error");
    toast(r.data?.message || "验证码已发送，请查收邮件", "success");
    setLeft(Number(r.data?.interval) || 60);
  };
  return (
    <button type="button" className="btn code-btn" disabled={!ready || busy || left > 0} onClick={() => void send()}>
      {left > 0 ? `${left} 秒后重新获取` : busy ? "发送中…" : "获取验证码"}
    </button>
  );
}
