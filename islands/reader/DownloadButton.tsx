import { type ComponentType, useEffect, useState } from "react";
import type { BuyOffer } from "../commerce/BuyDialog.tsx";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface DownloadButtonProps {
  uuid: string;
  price: number;
  ext: string;
  /** the file size as shown ("1.20 MB"), formatted on the server so the page ships no formatter */
  sizeText: string;
  creditName: string;
  loggedIn: boolean;
  /** download.enable_guest_download: guests may fetch free documents without signing in */
  guestDownload?: boolean;
  /** list rows (/me/download): just the button, no price and file line */
  compact?: boolean;
  /** why a paid document is free for this member (已购买, VIP 免费…), shown in place of the price */
  note?: string;
  /** a paid document this member has not bought: 购买 beside 下载 (credits at once, or money via /order) */
  buy?: BuyOffer;
}

type Dialog = ComponentType<{ offer: BuyOffer; creditName: string; onClose: () => void }>;

/**
 * The document's download action: asks POST /document/download for a short-lived signed link and
 * hands it to the browser, which saves the file (the attachment disposition keeps the page open).
 * Guests who may not download get a login link that comes back to this document.
 */
export default function DownloadButton({ uuid, price, ext, sizeText, creditName, loggedIn, guestDownload = false, compact = false, note, buy }: DownloadButtonProps) {
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [Buy, setBuy] = useState<Dialog | null>(null);
  // Rendered disabled on the server; usable once the click handler exists.
  useEffect(() => setReady(true), []);

  const priceText = price > 0 ? `${price} ${creditName}` : note || "免费";
  const info = compact ? null : (
    <span className="download-meta">
      <span className={price > 0 ? "download-price" : "download-price download-free"}>{priceText}</span>
      <span className="download-file">{`${ext.replace(/^\./, "").toUpperCase()} · ${sizeText}`}</span>
    </span>
  );

  if (!loggedIn && (!guestDownload || price > 0)) {
    const back = `/document/${encodeURIComponent(uuid)}`;
    return (
      <div className={compact ? "download-box compact" : "download-box"}>
        {info}
        <a className="btn btn-primary download-btn" href={`/login?redirect=${encodeURIComponent(back)}`}>登录后下载</a>
      </div>
    );
  }

  const start = async () => {
    setBusy(true);
    const r = await api<{ url: string; price: number }>("POST", "/document/download", { body: { uuid } });
    setBusy(false);
    if (!r.ok || !r.data?.url) return toast(r.message || "下载失败", "error");
    toast(r.data.price > 0 ? `已扣除 ${r.data.price} ${creditName}，开始下载` : "开始下载", "success");
    window.location.href = r.data.url;
  };

  return (
    <div className={compact ? "download-box compact" : "download-box"}>
      {info}
      <button type="button" className="btn btn-primary download-btn" disabled={!ready || busy} onClick={() => void start()}>
        {busy ? "正在准备…" : `${compact ? "再次下载" : price > 0 ? "下载" : "免费下载"}${price > 0 ? `（${priceText}）` : ""}`}
      </button>
      {buy ? (
        // The dialog's code loads by URL on the first click (BuyDialog.tsx).
        <button type="button" className="btn buy-doc-btn" disabled={!ready} onClick={() => void import(/* @vite-ignore */ buy.url).then((m: { default: Dialog }) => setBuy(() => m.default))}>购买</button>
      ) : null}
      {Buy && buy ? <Buy offer={buy} creditName={creditName} onClose={() => setBuy(null)} /> : null}
    </div>
  );
}
