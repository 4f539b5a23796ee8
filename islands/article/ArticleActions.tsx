import { useEffect, useState, type ComponentType } from "react";
import { api } from "../api.ts";
import type { ReportDialogProps } from "../reader/ReportDialog.tsx";
import { toast } from "../toast.ts";

type ReportDialog = ComponentType<ReportDialogProps>;

export interface ArticleActionsProps {
  articleId: number;
  identifier: string;
  title: string;
  loggedIn: boolean;
  favorited: boolean;
  favoriteCount: number;
  reported: boolean;
  /** approved and public: the view counts, and sharing makes sense */
  visible: boolean;
  /** the report dialog's module (islands/reader/ReportDialog.tsx), loaded on the first click of 举报 */
  reportUrl: string;
}

/** Favourite, share and report on the article page; also sends the view beacon once hydrated. */
export default function ArticleActions(p: ArticleActionsProps) {
  const [fav, setFav] = useState(p.favorited);
  const [count, setCount] = useState(p.favoriteCount);
  const [busy, setBusy] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [Report, setReport] = useState<ReportDialog | null>(null);
  const [reported, setReported] = useState(p.reported);
  const [ready, setReady] = useState(false);
  const path = `/article/${p.identifier}`;
  const login = `/login?redirect=${encodeURIComponent(path)}`;

  useEffect(() => {
    setReady(true);
    // Counted after hydration, so cached pages still count and crawlers that run no script never do.
    if (!p.visible) return;
    const body = JSON.stringify({ identifier: p.identifier });
    if (!navigator.sendBeacon?.("/api/v1/article/view", body)) void fetch("/api/v1/article/view", { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(() => {});
  }, []);

  const toggle = async () => {
    if (!p.loggedIn) return void (location.href = login);
    setBusy(true);
    const r = fav
      ? await api<{ favorite_count: number }>("DELETE", "/article/favorite", { body: { article_id: p.articleId } })
      : await api<{ favorite_count: number }>("POST", "/article/favorite", { body: { article_id: p.articleId } });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "操作失败", "error");
    setFav(!fav);
    setCount(r.data.favorite_count);
    toast(fav ? "已取消收藏" : "收藏成功", "success");
  };

  const url = () => `${location.origin}${path}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url());
      toast("链接已复制，快去分享吧", "success");
    } catch {
      toast("复制失败，请手动复制地址栏中的链接", "error");
    }
    setSharing(false);
  };
  const share = async () => {
    if (typeof navigator.share === "function") {
      try {
        return await navigator.share({ title: p.title, url: url() });
      } catch {
        // The user closed the system sheet, or it is unavailable: fall back to our own panel.
      }
    }
    setSharing(!sharing);
  };
  const openReport = () => {
    if (!p.loggedIn) return void (location.href = login);
    import(/* @vite-ignore */ p.reportUrl).then((m: { default: ReportDialog }) => setReport(() => m.default), () => toast("加载失败，请刷新页面后重试", "error"));
  };
  const enc = (s: string) => encodeURIComponent(s);

  return (
    <div className="doc-actions art-actions">
      <button type="button" className={fav ? "btn doc-fav active" : "btn doc-fav"} aria-pressed={fav} disabled={!ready || busy || !p.visible} onClick={() => void toggle()}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M12 3.5l2.6 5.3 5.9.9-4.2 4.1 1 5.8L12 16.9l-5.3 2.7 1-5.8-4.2-4.1 5.9-.9z" fill={fav ? "currentColor" : "none"} stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" /></svg>
        <span>{fav ? "已收藏" : "收藏"}</span>
        <span className="doc-fav-count">{count}</span>
      </button>
      <div className="art-share">
        <button type="button" className="btn" aria-expanded={sharing} disabled={!ready || !p.visible} onClick={() => void share()}>分享</button>
        {sharing ? (
          <div className="art-share-panel" role="group" aria-label="分享到">
            <button type="button" className="btn btn-sm" onClick={() => void copy()}>复制链接</button>
            <a className="btn btn-sm" target="_blank" rel="noopener noreferrer" href={`https://service.weibo.com/share/share.php?url=${enc(url())}&title=${enc(p.title)}`}>微博</a>
            <a className="btn btn-sm" target="_blank" rel="noopener noreferrer" href={`https://sns.qzone.qq.com/cgi-bin/qzshare/cgi_qzshare_onekey?url=${enc(url())}&title=${enc(p.title)}`}>QQ 空间</a>
          </div>
        ) : null}
      </div>
      <button type="button" className="btn btn-text doc-report" disabled={!ready || reported || !p.visible} onClick={openReport}>{reported ? "已举报" : "举报"}</button>
      {Report ? <Report target={{ article_id: p.articleId }} onClose={() => setReport(null)} onDone={() => (setReported(true), setReport(null))} /> : null}
    </div>
  );
}
