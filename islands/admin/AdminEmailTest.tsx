import { useState } from "react";
import { useHydrated } from "./useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** Below /admin/config/email: sends a test message with the saved settings and shows the outcome. */
export default function AdminEmailTest({ email: initial }: { email: string }) {
  const [email, setEmail] = useState(initial);
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const to = email.trim();
    if (!EMAIL.test(to)) return toast("请输入正确的邮箱", "error");
    setBusy(true);
    setResult(null);
    const r = await api<{ message: string }>("POST", "/email/test", { body: { email: to } });
    setBusy(false);
    const text = r.ok ? r.message || "测试邮件已发送，请查收" : r.message || "发送失败";
    // Shown inline rather than as a toast: an SMTP error is long and the admin needs time to read it.
    setResult({ ok: r.ok, text });
  };
  return (
    <form className="adm-form adm-config-form" onSubmit={submit} noValidate>
      <div className="adm-field">
        <label htmlFor="f-test-email">收件邮箱</label>
        <div>
          <div className="adm-row">
            <input id="f-test-email" name="test_email" type="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} placeholder="接收测试邮件的邮箱" />
            <button type="submit" className="adm-btn adm-btn-primary" disabled={!ready || busy}>{busy ? "发送中…" : "发送测试邮件"}</button>
          </div>
          <p className="adm-help">使用已保存的设置发送；修改设置后请先保存再测试。</p>
          {result ? <p role="status" className="adm-help" style={{ color: result.ok ? "var(--adm-ok)" : "var(--adm-danger)" }}>{result.text}</p> : null}
        </div>
      </div>
    </form>
  );
}
