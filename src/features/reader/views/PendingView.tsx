import type { ReactNode } from "react";
import { DOC_STATUS, DOC_STATUS_LABEL } from "#src/features/documents/status.ts";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { ExtBadge } from "#src/views/components/DocumentCard.tsx";
import type { DocumentRow } from "../access.ts";

const HINT: Record<number, string> = {
  [DOC_STATUS.pending]: "文档已进入转换队列，转换完成后即可在线阅读。",
  [DOC_STATUS.converting]: "文档正在转换中，请稍后刷新页面。",
  [DOC_STATUS.failed]: "文档转换失败，可在个人中心或后台重新转换。",
  [DOC_STATUS.disabled]: "文档已被禁用，其他用户无法访问。",
  [DOC_STATUS.reconvert]: "文档等待重新转换。",
  [DOC_STATUS.pendingReview]: "文档正在等待管理员审核，审核通过后公开。",
  [DOC_STATUS.rejected]: "文档未通过审核，其他用户无法访问。",
};

/** What the owner or an admin sees of a document visitors cannot: its status and conversion error. */
export function PendingView({ doc, children }: { doc: DocumentRow; children?: ReactNode }) {
  return (
    <div className="container reader">
      <section className="card reader-pending">
        <h1 className="reader-title"><ExtBadge ext={doc.ext} /><span>{doc.title}</span></h1>
        <p className="reader-meta">
          <span>{formatBytes(doc.size)}</span>
          {doc.pages ? <span>{`${doc.pages} 页`}</span> : null}
          <time dateTime={new Date(doc.created_at).toISOString()}>{formatDateTime(doc.created_at)}</time>
        </p>
        <p className="reader-status">
          <span className={`status-tag status-${doc.status}`}>{DOC_STATUS_LABEL[doc.status] ?? "未知状态"}</span>
          <span>{HINT[doc.status] ?? ""}</span>
        </p>
        {doc.convert_error ? <pre className="reader-error" role="alert">{doc.convert_error}</pre> : null}
        <p className="muted">仅文档上传者与管理员可以看到此页面。</p>
        <a className="btn" href="/me/document">返回我的文档</a>
      </section>
      {children}
    </div>
  );
}
