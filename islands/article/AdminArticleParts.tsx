// Pieces of the admin article screens (no default export: not an island itself).
import { useState } from "react";
import { formatDate, formatDateTime } from "#src/lib/format.ts";
import { batch } from "../admin/AdminDocumentParts.tsx";
import { Modal } from "../admin/AdminKit.tsx";

export type ArticleRowData = Record<string, unknown> & {
  id: number; identifier: string; title: string; status: number; status_label: string; reject_reason?: string; username: string; user_id: number;
  category_title: string; is_recommend: boolean; view_count: number; comment_count: number; favorite_count: number; created_at: number;
  deleted_at?: number | null; deleted_username?: string;
};

const TONE: Record<number, string> = { 0: "adm-tag art-adm-warn", 1: "adm-tag adm-tag-ok", 2: "adm-tag adm-tag-bad" };

export function ArticleStatus({ row }: { row: ArticleRowData }) {
  return <span className={TONE[row.status] ?? "adm-tag"} title={row.reject_reason || undefined}>{row.status_label}</span>;
}

export const articleLink = (r: ArticleRowData) => <a className="adm-ellipsis adm-doc-title" href={`/article/${r.identifier}`} target="_blank" rel="noopener noreferrer" title={r.title}>{r.title}</a>;
export const day = (ms: number) => <span className="adm-nowrap" title={formatDateTime(ms)}>{formatDate(ms)}</span>;
export const when = (ms: unknown) => <span className="adm-nowrap">{typeof ms === "number" ? formatDateTime(ms) : "—"}</span>;

const ACTIONS: { label: string; path: string; body: Record<string, unknown>; danger?: boolean }[] = [
  { label: "审核通过", path: "/article/check", body: { status: 1 } },
  { label: "设为待审核", path: "/article/check", body: { status: 0 } },
  { label: "推荐", path: "/article/recommend", body: { type: 1 } },
  { label: "取消推荐", path: "/article/recommend", body: { type: 0 } },
];

/** Batch buttons over the picked articles; rejecting asks for the reason its authors will read. */
export function ArticleBatchBar({ picked, ready, onDone, onDelete }: { picked: number[]; ready: boolean; onDone: () => void; onDelete: () => void }) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const run = async (a: (typeof ACTIONS)[number]) => (await batch(a.path, { ...a.body, id: picked }, "操作成功")) && onDone();
  const reject = async () => {
    if (!reason.trim()) return;
    if (await batch("/article/check", { id: picked, status: 2, reason: reason.trim() }, "已拒绝")) (setRejecting(false), setReason(""), onDone());
  };
  return (
    <div className="adm-toolbar adm-doc-batch" role="group" aria-label="批量操作">
      <span className="adm-muted">{picked.length ? `已选 ${picked.length} 篇` : "勾选文章后可批量操作"}</span>
      {ACTIONS.map((a) => <button key={a.label} type="button" className="adm-btn adm-btn-sm" disabled={!ready || !picked.length} onClick={() => void run(a)}>{a.label}</button>)}
      <button type="button" className="adm-btn adm-btn-sm adm-btn-danger" disabled={!ready || !picked.length} onClick={() => setRejecting(true)}>审核拒绝</button>
      <button type="button" className="adm-btn adm-btn-sm adm-btn-danger" disabled={!ready || !picked.length} onClick={onDelete}>删除</button>
      <span className="adm-spacer" />
      <a className="adm-btn adm-btn-sm" href="/admin/article/recycle">回收站</a>
      <Modal open={rejecting} title="审核拒绝" width={460} onClose={() => setRejecting(false)}>
        <form className="adm-form" onSubmit={(e) => (e.preventDefault(), void reject())}>
          <div className="adm-field">
            <label htmlFor="art-reject-reason"><em aria-hidden="true">*</em>拒绝原因</label>
            <div className="adm-control">
              <textarea id="art-reject-reason" rows={3} maxLength={255} value={reason} placeholder="作者会看到这个原因，如：内容与分类不符" onChange={(e) => setReason(e.target.value)} />
              <p className="adm-help">{`将拒绝选中的 ${picked.length} 篇文章`}</p>
            </div>
          </div>
          <div className="adm-form-actions">
            <button type="button" className="adm-btn" onClick={() => setRejecting(false)}>取消</button>
            <button type="submit" className="adm-btn adm-btn-danger" disabled={!reason.trim()}>确定拒绝</button>
          </div>
        </form>
      </Modal>
    </div>
  );
}
