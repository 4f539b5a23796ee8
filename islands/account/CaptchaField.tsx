// Captcha for the login, register and other forms: fetches a challenge on mount, refreshes on a
// click on the image and after every submit (each captcha is good for one check only).
import { useCallback, useEffect, useId, useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export type CaptchaPurpose = "login" | "register" | "comment" | "find_password";

export interface Captcha {
  enabled: boolean;
  id: string;
  image: string;
  value: string;
  setValue: (v: string) => void;
  refresh: () => Promise<void>;
  /** fields to send with the form */
  payload: () => { captcha_id?: string; captcha?: string };
}

export function useCaptcha(purpose: CaptchaPurpose, enabled: boolean): Captcha {
  const [state, setState] = useState({ id: "", image: "" });
  const [value, setValue] = useState("");
  const refresh = useCallback(async () => {
    if (!enabled) return;
    const r = await api<{ enable: boolean; id: string; captcha: string }>("GET", "/user/captcha", { query: { type: purpose } });
    if (!r.ok) return toast(r.message || "获取验证码失败", "error");
    if (r.data?.enable) setState({ id: r.data.id, image: r.data.captcha });
    setValue("");
  }, [purpose, enabled]);
  useEffect(() => void refresh(), [refresh]);
  return { enabled, ...state, value, setValue, refresh, payload: () => (enabled ? { captcha_id: state.id, captcha: value.trim() } : {}) };
}

export function CaptchaField({ c }: { c: Captcha }) {
  const label = useId();
  if (!c.enabled) return null;
  return (
    <div className="field">
      <span id={label}>验证码</span>
      <div className="captcha-row">
        <input aria-labelledby={label} name="captcha" autoComplete="off" maxLength={16} value={c.value} onChange={(e) => c.setValue(e.target.value)} placeholder="请输入验证码" />
        <button type="button" className="captcha-img" title="看不清？换一张" aria-label="看不清？换一张" onClick={() => void c.refresh()}>
          {c.image ? <img src={c.image} alt="验证码" /> : <span className="muted">加载中…</span>}
        </button>
      </div>
    </div>
  );
}
