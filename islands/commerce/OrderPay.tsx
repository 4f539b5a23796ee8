import { useEffect, useState } from "react";
import { formatYuan } from "#src/features/orders/pricing.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { OrderDone, PayMethods, usePayStatus } from "./orderParts.tsx";

export interface OrderPayProps {
  orderNo: string;
  amount: number;
  /** credits a document order costs when paid from the balance */
  creditPrice: number;
  status: number;
  expireAt: number;
  /** the server's clock when the page was rendered, so the count-down ignores a wrong client clock */
  now: number;
  payTypes: number[];
  creditName: string;
  balance: number;
  /** where a paid order leads on, and where to start again after a closed one */
  next: { href: string; label: string };
  again: { href: string; label: string };
  /** an administrator looking at someone else's order: status only, nothing to pay or close */
  readOnly?: boolean;
}

type Qr = { src: string } | { error: string } | null;

/**
 * The payment part of /order: choose WeChat (QR drawn by the server), Alipay (off to its cashier) or
 * credits; the count-down to expiry; GET /order/status every few seconds until paid or closed.
 * Before hydration the pay buttons are disabled and the status is the server's.
 */
export default function OrderPay(p: OrderPayProps) {
  const [ready, setReady] = useState(false);
  const { status, setStatus, left } = usePayStatus(p.orderNo, p.status, p.expireAt, p.now);
  const [method, setMethod] = useState(p.payTypes[0] ?? 0);
  const [qr, setQr] = useState<Qr>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setReady(true), []);
  const expired = status === 1 && left <= 0;

  const pay = async (payment_type: number) => api<{ code_url?: string; pay_url?: string; status?: number }>("POST", "/order/pay", { body: { order_no: p.orderNo, payment_type } });

  const loadQr = async () => {
    setQr(null);
    const r = await pay(1);
    if (!r.ok || !r.data?.code_url) return setQr({ error: r.message || "二维码生成失败，请稍后重试" });
    setQr({ src: `/order/qrcode?order_no=${encodeURIComponent(p.orderNo)}&code_url=${encodeURIComponent(r.data.code_url)}` });
  };
  // The QR is asked for once WeChat is the chosen method; choosing it again keeps the one shown.
  useEffect(() => {
    if (ready && !p.readOnly && status === 1 && !expired && method === 1 && !qr) void loadQr();
  }, [ready, status, expired, method]);

  const alipay = async () => {
    setBusy(true);
    const r = await pay(2);
    if (!r.ok || !r.data?.pay_url) {
      setBusy(false);
      return toast(r.message || "发起支付宝支付失败", "error");
    }
    location.href = r.data.pay_url;
  };
  const credits = async () => {
    setBusy(true);
    const r = await pay(5);
    setBusy(false);
    if (!r.ok) return toast(r.message || "支付失败", "error");
    setStatus(2);
  };
  const close = async () => {
    setBusy(true);
    const r = await api<{ status: number }>("PUT", "/order/close", { body: { order_no: p.orderNo } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "取消订单失败", "error");
    setStatus(3);
  };

  if (status !== 1 || expired) return <OrderDone status={status} expired={expired} next={p.next} again={p.again} />;
  const mm = String(Math.floor(left / 60_000)).padStart(2, "0");
  const ss = String(Math.floor((left % 60_000) / 1000)).padStart(2, "0");
  let panel: React.ReactNode = <p className="muted pay-none">暂无可用的支付方式，请联系网站管理员。</p>;
  if (p.readOnly) {
    panel = <p className="muted pay-none">这是其他用户的订单，只能查看，不能代为支付。</p>;
  } else if (method === 1) {
    panel = (
      <div className="pay-qr">
        {qr && "src" in qr ? <img src={qr.src} alt="微信支付二维码" width={200} height={200} /> : (
          <div className="pay-qr-box">
            {qr && "error" in qr ? <><p role="alert">{qr.error}</p><button type="button" className="btn btn-sm" onClick={() => void loadQr()}>重新获取</button></> : <p className="muted">正在生成二维码…</p>}
          </div>
        )}
        <p className="pay-qr-tip"><span className="pay-wechat-mark" aria-hidden="true" />请使用微信扫一扫，扫描二维码完成支付</p>
        <p className="muted pay-qr-hint">在手机上浏览时，可截图保存二维码，再在微信「扫一扫」中从相册选取。</p>
      </div>
    );
  } else if (method === 2) {
    panel = (
      <div className="pay-action">
        <button type="button" className="btn btn-primary btn-lg pay-alipay" disabled={!ready || busy} onClick={() => void alipay()}>{busy ? "正在跳转…" : "前往支付宝支付"}</button>
        <p className="muted">将打开支付宝收银台，支付完成后会自动返回本页。</p>
      </div>
    );
  } else if (method === 5) {
    const short = p.balance < p.creditPrice;
    panel = (
      <div className="pay-action">
        <button type="button" className="btn btn-primary btn-lg" disabled={!ready || busy || short} onClick={() => void credits()}>{`使用 ${p.creditPrice} ${p.creditName}支付`}</button>
        <p className={short ? "pay-short" : "muted"}>{`当前余额 ${p.balance} ${p.creditName}${short ? `，还差 ${p.creditPrice - p.balance}` : ""}`}</p>
      </div>
    );
  }
  return (
    <div className="order-pay">
      <div className="order-pay-head">
        <span className="order-state order-state-1">待支付</span>
        <span className="order-countdown">剩余支付时间 <strong>{`${mm}:${ss}`}</strong></span>
      </div>
      <p className="order-due">应付金额 <strong>{`¥${formatYuan(p.amount)}`}</strong></p>
      {p.payTypes.length > 1 && !p.readOnly ? <PayMethods types={p.payTypes} method={method} creditName={p.creditName} disabled={!ready} onChange={setMethod} /> : null}
      {panel}
      {p.readOnly ? null : (
        <p className="order-pay-foot">
          <button type="button" className="btn-link" disabled={!ready || busy} onClick={() => void close()}>取消订单</button>
        </p>
      )}
    </div>
  );
}
