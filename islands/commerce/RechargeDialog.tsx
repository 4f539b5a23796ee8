// The recharge dialog (spec §2/§5/§9). It is never rendered on the server: its default export only
// makes the build give it an entry chunk of its own, whose URL the header hands UserMenu (for the
// menu's and the drawer's recharge entries) and /me hands RechargeButton. They import that URL on
// the first click and call openRecharge(), so the dialog's code is not part of every page's scripts.
import { createElement, useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { discountBadge, formatYuan, parseDiscountTiers, rechargeQuote } from "#src/features/orders/pricing.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

interface RechargeSettings { enable: boolean; credit_name: string; credit_exchange: number; recharge_discount: string }

const MAX_CREDITS = 10_000_000;

/** Why a quantity cannot be bought, or "" when it can. */
function problemOf(quantity: number, exchange: number, name: string): string {
  if (!Number.isFinite(quantity) || quantity <= 0) return `请输入要充值的${name}数量`;
  if (!Number.isInteger(quantity) || quantity % exchange !== 0) return `充值数量必须是 ${exchange} 的整数倍`;
  if (quantity > MAX_CREDITS) return `单次最多充值 ${MAX_CREDITS} ${name}`;
  return "";
}

let shown = false;

/**
 * Shows the dialog in a root of its own at the end of <body>: the header menu that asks for it is
 * hidden on phones, and hovering or focusing the dialog must not reopen that menu.
 */
export function openRecharge() {
  if (shown) return;
  shown = true;
  const host = document.body.appendChild(document.createElement("div"));
  const root = createRoot(host);
  const onClose = () => {
    root.unmount();
    host.remove();
    shown = false;
  };
  root.render(createElement(RechargeDialog, { onClose }));
}

export default function RechargeDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [conf, setConf] = useState<RechargeSettings | null>(null);
  const [failed, setFailed] = useState("");
  const [choice, setChoice] = useState<number | "custom">(0);
  const [custom, setCustom] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    void api<RechargeSettings>("GET", "/settings/recharge").then((r) => (r.ok && r.data ? setConf(r.data) : setFailed(r.message || "充值设置加载失败")));
  }, []);

  const name = conf?.credit_name || "积分";
  const exchange = Math.max(1, Math.floor(Number(conf?.credit_exchange) || 1));
  const tiers = conf ? parseDiscountTiers(conf.recharge_discount) : [];
  // A preset is a tier amount one can actually buy (a multiple of the exchange rate).
  const presets = tiers.filter((t) => !problemOf(t.amount, exchange, name));
  const selected = choice === "custom" ? Number(custom) : choice || presets[0]?.amount || 0;
  const isCustom = choice === "custom" || !presets.length;
  const problem = conf ? problemOf(selected, exchange, name) : "";
  const quote = conf && !problem ? rechargeQuote(selected, exchange, tiers) : null;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (problem) return setError(problem);
    setBusy(true);
    const r = await api<{ order_no: string }>("POST", "/order", { body: { order_type: 3, quantity: selected } });
    if (!r.ok || !r.data?.order_no) {
      setBusy(false);
      return toast(r.message || "订单创建失败", "error");
    }
    location.href = `/order?order_no=${encodeURIComponent(r.data.order_no)}`;
  };

  let body: React.ReactNode;
  if (failed) body = <p className="form-error" role="alert">{failed}</p>;
  else if (!conf) body = <p className="muted recharge-loading">加载中…</p>;
  else if (!conf.enable) body = <p className="muted">{`${name}充值暂未开放，请稍后再来。`}</p>;
  else body = (
    <>
      <p className="muted recharge-rate">{`1 元 = ${exchange} ${name}`}</p>
      <fieldset className="recharge-tiers">
        <legend className="recharge-legend">{`选择充值${name}数量`}</legend>
        {presets.map((t) => {
          const q = rechargeQuote(t.amount, exchange, tiers);
          const on = !isCustom && selected === t.amount;
          return (
            <label key={t.amount} className={on ? "recharge-tier active" : "recharge-tier"}>
              <input type="radio" name="recharge-tier" checked={on} onChange={() => (setChoice(t.amount), setError(""))} />
              <span className="recharge-credits">{`${t.amount} ${name}`}</span>
              <span className="recharge-price">{`¥${formatYuan(q.amount)}`}</span>
              {q.rate < 1 ? <span className="recharge-badge">{discountBadge(q.rate)}</span> : null}
            </label>
          );
        })}
        <label className={isCustom ? "recharge-tier recharge-custom active" : "recharge-tier recharge-custom"}>
          {presets.length ? <input type="radio" name="recharge-tier" checked={isCustom} onChange={() => (setChoice("custom"), setError(""))} /> : null}
          <span className="recharge-credits">自定义数量</span>
          <input
            className="recharge-input" type="number" inputMode="numeric" min={0} step={exchange} value={custom} placeholder={`${exchange} 的整数倍`}
            aria-label={`自定义充值${name}数量`} onFocus={() => setChoice("custom")} onChange={(e) => (setChoice("custom"), setCustom(e.target.value), setError(""))}
          />
        </label>
      </fieldset>
      <p className="recharge-sum" aria-live="polite">
        {quote ? (
          <>
            <span>应付金额</span><strong>{`¥${formatYuan(quote.amount)}`}</strong>
            {quote.discount > 0 ? <span className="muted">{`已优惠 ¥${formatYuan(quote.discount)}（${discountBadge(quote.rate)}）`}</span> : null}
            <span className="muted">{`到账 ${quote.credits} ${name}`}</span>
          </>
        ) : <span className="muted">{isCustom && !custom ? `请输入要充值的${name}数量` : problem}</span>}
      </p>
      {error ? <p className="form-error" role="alert">{error}</p> : null}
    </>
  );

  return (
    <dialog ref={ref} className="wk-dialog recharge-dialog" aria-labelledby="recharge-title" onClose={onClose} onCancel={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="recharge-head">
          <h2 id="recharge-title" className="wk-dialog-title">积分充值</h2>
          <button type="button" className="recharge-close" aria-label="关闭" onClick={onClose}>×</button>
        </div>
        {body}
        <div className="wk-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>取消</button>
          {conf?.enable ? <button type="submit" className="btn btn-primary" disabled={busy || !quote}>{busy ? "正在创建订单…" : "立即充值"}</button> : null}
        </div>
      </form>
    </dialog>
  );
}
