// The reader's 购买 dialog: a paid document bought once is the member's for good. Never rendered on
// the server: its default export only gives it an entry chunk of its own, which DownloadButton
// imports by URL on the first click of 购买, so reading a document costs none of this code.
import { useEffect, useRef, useState } from "react";
import { formatYuan } from "#src/features/orders/pricing.ts";
import { api } from "../api.ts";
import { flashThenGo } from "../toast.ts";

export interface BuyOffer {
  /** the dialog's chunk (its build URL) */
  url: string;
  documentId: number;
  title: string;
  /** what buying from the balance costs this member now */
  credits: number;
  /** the money price in fen, or 0 when no money payment is switched on */
  amount: number;
}

/** With credits the order is paid at once from the balance; with money it goes to /order. */
export default function BuyDialog({ offer: o, creditName, onClose }: { offer: BuyOffer; creditName: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState("");
  const [error, setError] = useState("");
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const run = (kind: string, pay: (orderNo: string) => Promise<void>) => async () => {
    setBusy(kind);
    setError("");
    const r = await api<{ order_no: string }>("POST", "/order", { body: { order_type: 1, product_id: o.documentId, quantity: 1 } });
    try {
      if (!r.ok || !r.data?.order_no) throw new Error(r.message || "订单创建失败");
      await pay(r.data.order_no);
    } catch (e) {
      setError((e as Error).message);
      setBusy("");
    }
  };
  const withCredits = run("credits", async (no) => {
    const r = await api("POST", "/order/pay", { body: { order_no: no, payment_type: 5 } });
    if (!r.ok) {
      // Nothing was paid: the order is closed now rather than left waiting for its expiry.
      void api("PUT", "/order/close", { body: { order_no: no } });
      throw new Error(r.message || "支付失败");
    }
    flashThenGo("购买成功，现在可以阅读全文并免费下载了", location.pathname + location.search);
  });
  const withMoney = run("money", async (no) => {
    location.href = `/order?order_no=${encodeURIComponent(no)}`;
  });

  return (
    <dialog ref={ref} className="wk-dialog buy-doc-dialog" aria-labelledby="buy-doc-title" onClose={onClose} onCancel={onClose}>
      <h2 id="buy-doc-title" className="wk-dialog-title">购买文档</h2>
      <p className="buy-doc-name">{`《${o.title}》`}</p>
      <p className="muted">购买后永久有效，可阅读全文并随时免费下载。</p>
      <div className="buy-doc-options">
        <button type="button" className="btn btn-primary" disabled={!!busy} onClick={() => void withCredits()}>
          {busy === "credits" ? "正在支付…" : `使用 ${o.credits} ${creditName}购买`}
        </button>
        {o.amount > 0 ? (
          <button type="button" className="btn" disabled={!!busy} onClick={() => void withMoney()}>
            {busy === "money" ? "正在创建订单…" : `在线支付 ¥${formatYuan(o.amount)}`}
          </button>
        ) : null}
      </div>
      {error ? <p className="form-error" role="alert">{error}</p> : null}
      <div className="wk-dialog-actions">
        <button type="button" className="btn" onClick={onClose}>取消</button>
      </div>
    </dialog>
  );
}
