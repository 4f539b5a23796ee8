// The comment and reply form (no default export: part of the Comments island).
import { useEffect, useId, useRef, useState } from "react";
import type { CommentItem } from "#src/features/comments/list.ts";
import { contentLength } from "#src/features/comments/text.ts";
import { CaptchaField, useCaptcha } from "../account/CaptchaField.tsx";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

/** What every form and item of one Comments island shares. */
export interface FormContext {
  target: { document_id?: number; article_id?: number };
  viewer: { id: number; moderator: boolean } | null;
  settings: { enable: boolean; captcha: boolean; maxLength: number; allowLink: boolean };
  loginHref: string;
  ready: boolean;
}

export function CommentForm({ ctx, parentId, placeholder, autoFocus, compact, onPosted, onCancel }: {
  ctx: FormContext;
  parentId?: number;
  placeholder: string;
  autoFocus?: boolean;
  compact?: boolean;
  onPosted: (item: CommentItem) => void;
  onCancel?: () => void;
}) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // The captcha is fetched once the visitor starts writing, not for every page view.
  const [active, setActive] = useState(!!autoFocus);
  const captcha = useCaptcha("comment", ctx.settings.captcha && active);
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);

  const length = contentLength(text.trim());
  const over = length > ctx.settings.maxLength;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return setError("请输入评论内容");
    if (over) return setError(`评论内容不能超过 ${ctx.settings.maxLength} 个字`);
    if (captcha.enabled && !captcha.value.trim()) return setError("请输入验证码");
    setBusy(true);
    setError("");
    const r = await api<CommentItem & { message: string }>("POST", "/comment", { body: { ...ctx.target, ...(parentId ? { parent_id: parentId } : {}), content: text, ...captcha.payload() } });
    setBusy(false);
    if (captcha.enabled) void captcha.refresh();
    if (!r.ok || !r.data) {
      if (r.status === 401) return void (location.href = ctx.loginHref);
      return setError(r.message || "评论失败，请稍后再试");
    }
    toast(r.data.message || "评论成功", "success");
    setText("");
    onPosted(r.data);
  };

  return (
    <form className={compact ? "cmt-form cmt-form-compact" : "cmt-form"} onSubmit={(e) => void submit(e)}>
      <label className="cmt-sr-only" htmlFor={id}>{placeholder}</label>
      <textarea id={id} ref={ref} name="content" rows={compact ? 2 : 3} value={text} placeholder={placeholder} disabled={!ctx.ready}
        onFocus={() => setActive(true)} onChange={(e) => (setText(e.target.value), setError(""))} aria-invalid={over || undefined} aria-describedby={`${id}-count`} />
      {active && captcha.enabled ? <CaptchaField c={captcha} /> : null}
      {error ? <p className="form-error" role="alert">{error}</p> : null}
      <div className="cmt-form-bar">
        <span id={`${id}-count`} className={over ? "cmt-count cmt-over" : "cmt-count"}>{`${length}/${ctx.settings.maxLength}`}</span>
        {onCancel ? <button type="button" className="btn btn-sm" onClick={onCancel}>取消</button> : null}
        <button type="submit" className="btn btn-primary btn-sm" disabled={!ctx.ready || busy || !text.trim() || over}>{busy ? "提交中…" : parentId ? "回复" : "发表评论"}</button>
      </div>
    </form>
  );
}
