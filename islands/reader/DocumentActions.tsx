import { useState, type ComponentType } from "react";
import { api } from "../api.ts";
import type { ReportDialogProps } from "./ReportDialog.tsx";
import { toast } from "../toast.ts";

export interface DocumentActionsProps {
  documentId: number;
  /** where 登录 returns to */
  path: string;
  loggedIn: boolean;
  /** the viewer's favourite id, 0 when not favourited */
  favoriteId: number;
  favoriteCount: number;
  /** the viewer's rating 1–5, 0 when not rated yet */
  myScore: number;
  reported: boolean;
  /** the report dialog's module (ReportDialog.tsx), loaded on the first click of 举报 */
  reportUrl: string;
}

const LABELS = ["很差", "较差", "一般", "推荐", "力荐"];

/** Favourite / unfavourite, rating once, and the report dialog; anonymous visitors go to login. */
export default function DocumentActions(p: DocumentActionsProps) {
  const [fav, setFav] = useState(p.favoriteId);
  const [favCount, setFavCount] = useState(p.favoriteCount);
  const [mine, setMine] = useState(p.myScore);
  const [hover, setHover] = useState(0);
  const [busy, setBusy] = useState(false);
  const [Report, setReport] = useState<ComponentType<ReportDialogProps> | null>(null);
  const [reported, setReported] = useState(p.reported);
  const login = `/login?redirect=${encodeURIComponent(p.path)}`;

  const toggleFavorite = async () => {
    if (!p.loggedIn) return void (location.href = login);
    setBusy(true);
    const r = fav
      ? await api("DELETE", "/favorite", { body: { document_id: p.documentId } })
      : await api<{ id: number; favorite_count: number }>("POST", "/favorite", { body: { document_id: p.documentId } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "操作失败", "error");
    if (fav) {
      setFav(0);
      setFavCount((n) => Math.max(0, n - 1));
      toast("已取消收藏", "success");
    } else {
      const d = r.data as { id: number; favorite_count: number };
      setFav(d.id);
      setFavCount(d.favorite_count);
      toast("收藏成功", "success");
    }
  };

  const rate = async (score: number) => {
    if (!p.loggedIn) return void (location.href = login);
    if (mine) return;
    setBusy(true);
    const r = await api("POST", "/document/score", { body: { document_id: p.documentId, score } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "评分失败", "error");
    setMine(score);
    toast("评分成功，感谢您的评价", "success");
  };

  const openReport = () => {
    if (!p.loggedIn) return void (location.href = login);
    import(/* @vite-ignore */ p.reportUrl).then((m: { default: ComponentType<ReportDialogProps> }) => setReport(() => m.default), () => toast("加载失败，请刷新页面后重试", "error"));
  };

  const shown = hover || mine;
  return (
    <div className="doc-actions">
      <button type="button" className={fav ? "btn doc-fav active" : "btn doc-fav"} aria-pressed={!!fav} disabled={busy} onClick={() => void toggleFavorite()}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M12 3.5l2.6 5.3 5.9.9-4.2 4.1 1 5.8L12 16.9l-5.3 2.7 1-5.8-4.2-4.1 5.9-.9z" fill={fav ? "currentColor" : "none"} stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" /></svg>
        <span>{fav ? "已收藏" : "收藏"}</span>
        <span className="doc-fav-count">{favCount}</span>
      </button>
      <div className="doc-rate" onMouseLeave={() => setHover(0)}>
        <span className="muted">{mine ? "我的评分" : "评分"}</span>
        <span className="rate-stars" role="radiogroup" aria-label="给文档评分">
          {[1, 2, 3, 4, 5].map((s) => (
            <button key={s} type="button" role="radio" aria-checked={mine === s} aria-label={`${s} 星 ${LABELS[s - 1]}`} title={LABELS[s - 1]}
              className={s <= shown ? "rate-star on" : "rate-star"} disabled={busy || !!mine} onMouseEnter={() => !mine && setHover(s)} onClick={() => void rate(s)}>★</button>
          ))}
        </span>
        {shown ? <span className="rate-label">{LABELS[shown - 1]}</span> : null}
      </div>
      <button type="button" className="btn btn-text doc-report" disabled={reported} onClick={openReport}>{reported ? "已举报" : "举报"}</button>
      {Report ? <Report target={{ document_id: p.documentId }} onClose={() => setReport(null)} onDone={() => (setReported(true), setReport(null))} /> : null}
    </div>
  );
}
