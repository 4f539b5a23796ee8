import { useEffect, useState } from "react";

export interface ReaderPagesProps {
  uuid: string;
  title: string;
  /** page image URL with {n} for the page number */
  url: string;
  /** page images this reader may see: the preview, or every rendered page for the owner, admins and buyers */
  preview: number;
  /** pages added by each 继续阅读 */
  per: number;
  /** pages shown by the server render */
  initial: number;
  width: number;
  height: number;
  /** CSS background of the watermark overlay, "" for none */
  watermark: string;
  /** ad HTML shown after every `per` pages, "" for none (VIP users, no ad) */
  between: string;
  /** ?page=N: scrolled into view once hydrated; 0 for none */
  focus: number;
  /** whether this view counts (visible documents only) */
  count: boolean;
}

const END_SELECTOR = "[data-reader-end]";

/**
 * The page images: `initial` from the server, 继续阅读 adds `per` more up to the preview limit, then
 * the server-rendered end notice (download slot) is revealed. Before hydration the button is a
 * link to ?page=N, which the server renders through page N.
 */
export default function ReaderPages(p: ReaderPagesProps) {
  const [shown, setShown] = useState(p.initial);
  const done = shown >= p.preview;

  useEffect(() => {
    // ?page=N brings page N into view on a fresh visit; a reload or back/forward keeps the
    // browser's own scroll position, and a #page-N link has already been scrolled by the browser.
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const restored = nav?.type === "reload" || nav?.type === "back_forward";
    if (p.focus > 0 && !restored && !location.hash) document.getElementById(`page-${p.focus}`)?.scrollIntoView({ block: "start" });
    // Counted by the browser after hydration, so cached pages still count and crawlers that do
    // not run scripts never do.
    if (p.count) {
      // Plain text: sendBeacon refuses JSON-typed bodies in some browsers; the server parses either.
      const body = JSON.stringify({ uuid: p.uuid });
      if (!navigator.sendBeacon?.("/api/v1/document/view", body)) {
        void fetch("/api/v1/document/view", { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(() => {});
      }
    }
  }, []);

  useEffect(() => {
    const end = document.querySelector<HTMLElement>(END_SELECTOR);
    if (end) end.hidden = !done;
  }, [done]);

  const more = (e: React.MouseEvent) => {
    e.preventDefault();
    setShown((n) => Math.min(p.preview, n + p.per));
  };
  const next = Math.min(p.preview, shown + p.per);
  const w = p.width > 0 ? p.width : 595;
  const h = p.height > 0 ? p.height : 842;
  const pages = Array.from({ length: shown }, (_, i) => i + 1);

  return (
    <div className="reader-pages" style={p.watermark ? ({ "--wm": p.watermark } as React.CSSProperties) : undefined}>
      {pages.map((n) => (
        <div key={n}>
          <figure className="reader-page" id={`page-${n}`} data-page={n}>
            <img src={p.url.replace("{n}", String(n))} alt={`${p.title} 第${n}页`} width={w} height={h} loading="lazy" decoding="async" draggable={false} />
            {p.watermark ? <div className="reader-wm" aria-hidden="true" /> : null}
            <figcaption className="reader-page-no">{`${n} / ${p.preview}`}</figcaption>
          </figure>
          {p.between && n % p.per === 0 && n < shown ? <div className="ad-slot ad-document-between" data-position="document_between" dangerouslySetInnerHTML={{ __html: p.between }} /> : null}
        </div>
      ))}
      {done ? null : (
        <div className="reader-more">
          <a className="btn btn-primary btn-lg" href={`?page=${next}#page-${shown + 1}`} rel="nofollow" onClick={more}>继续阅读</a>
          <span className="muted">{`已显示 ${shown} / ${p.preview} 页`}</span>
        </div>
      )}
    </div>
  );
}
