// Parts of the OrderPay island (no default export): live status, the method picker, the end states.
import { useEffect, useState } from "react";

const POLL_MS = 2500;
// A payment made at the last second still shows up: polling goes on this long after expiry.
const POLL_AFTER_EXPIRY_MS = 120_000;

/** The order's status, kept current by GET /order/status, and the milliseconds left to pay. */
export function usePayStatus(orderNo: string, initial: number, expireAt: number, serverNow: number) {
  const [status, setStatus] = useState(initial);
  // The page's clock may differ from the server's: count from the server's time at rendering.
  const [skew] = useState(() => serverNow - Date.now());
  const [left, setLeft] = useState(() => Math.max(0, expireAt - serverNow));

  useEffect(() => {
    if (status !== 1) return;
    const tick = () => setLeft(Math.max(0, expireAt - (Date.now() + skew)));
    tick();
    const t = setInterval(tick, 1000);
    return () => clearInterval(t);
  }, [status, expireAt, skew]);

  useEffect(() => {
    if (status !== 1) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        // A plain fetch: the shared client would flash the page's progress bar on every poll.
        const res = await fetch(`/api/v1/order/status?order_no=${encodeURIComponent(orderNo)}`, { credentials: "same-origin" });
        const data = res.ok ? ((await res.json()) as { status?: number }) : null;
        if (stopped) return;
        if (data?.status === 2 || data?.status === 3) return setStatus(data.status);
      } catch {
        // offline for a moment: the next poll tries again
      }
      if (!stopped && Date.now() + skew < expireAt + POLL_AFTER_EXPIRY_MS) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [status, orderNo, expireAt, skew]);

  return { status, setStatus, left };
}

const METHOD_NAMES: Record<number, string> = { 1: "微信支付", 2: "支付宝" };

export function PayMethods({ types, method, creditName, disabled, onChange }: { types: number[]; method: number; creditName: string; disabled: boolean; onChange: (t: number) => void }) {
  return (
    <fieldset className="pay-methods">
      <legend>支付方式</legend>
      {types.map((t) => (
        <label key={t} className={t === method ? `pay-method pay-method-${t} active` : `pay-method pay-method-${t}`}>
          <input type="radio" name="payment_type" value={t} checked={t === method} disabled={disabled} onChange={() => onChange(t)} />
          <span>{METHOD_NAMES[t] ?? `${creditName}支付`}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Paid, closed, or pending past its expiry (the job closes it soon; a late payment still shows). */
export function OrderDone({ status, expired, next, again }: { status: number; expired: boolean; next: { href: string; label: string }; again: { href: string; label: string } }) {
  if (status === 2) {
    return (
      <div className="order-done order-done-paid" role="status">
        <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true"><circle cx="24" cy="24" r="22" fill="#389e0d" /><path d="M14 24.5l7 7 13-14" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" /></svg>
        <p className="order-done-title">支付成功</p>
        <p className="muted">感谢你的支持，订单已完成。</p>
        <a className="btn btn-primary" href={next.href}>{next.label}</a>
      </div>
    );
  }
  return (
    <div className="order-done order-done-closed" role="status">
      <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true"><circle cx="24" cy="24" r="22" fill="#8c8c8c" /><path d="M24 12v14M24 33v2" stroke="#fff" strokeWidth="4" strokeLinecap="round" /></svg>
      <p className="order-done-title">{expired ? "订单已超时" : "订单已关闭"}</p>
      <p className="muted">{expired ? "超过支付时间，订单将自动关闭；如已付款，请稍候，确认后会自动到账。" : "该订单已关闭，无法继续支付。"}</p>
      <a className="btn btn-primary" href={again.href}>{again.label}</a>
    </div>
  );
}
