import { Avatar } from "#islands/site/UserMenu.tsx";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { AdSlot } from "#src/views/components/AdSlot.tsx";
import { compactCount, DocumentLines, ExtBadge } from "#src/views/components/DocumentCard.tsx";
import { Breadcrumb } from "#src/features/categories/views/parts.tsx";
import type { DocumentRow } from "../access.ts";
import type { Crumb } from "../reader.ts";
import type { RelatedDoc } from "../related.ts";
import { PersonalBody, PersonalComments, PersonalToolbar } from "./ReaderPersonal.tsx";
import { VipBadge } from "#src/features/vip/views/VipBadge.tsx";

export interface ReaderViewProps {
  doc: DocumentRow;
  crumbs: Crumb[];
  uploader: { id: number; username: string; avatar: string; doc_count: number; vip_until: number | null } | null;
  related: RelatedDoc[];
  creditName: string;
  /** c.req.query("page"): the page to open at */
  asked?: string;
  /** c.req.query("comment_sort") */
  commentSort?: string;
}

/** Average score ×100 as five stars filled proportionally, and the number. */
export function Stars({ score, count }: { score: number; count: number }) {
  const pct = Math.max(0, Math.min(100, score / 5));
  return (
    <span className="stars" title={count ? `${(score / 100).toFixed(1)} 分，${count} 人评分` : "暂无评分"}>
      <span className="stars-track" aria-hidden="true">★★★★★<span className="stars-fill" style={{ width: `${pct}%` }}>★★★★★</span></span>
      <span className="stars-num">{count ? (score / 100).toFixed(1) : "暂无评分"}</span>
    </span>
  );
}

/** Home, the category chain (links) and the document itself. */
export const crumbItems = (crumbs: Crumb[], title: string) => [
  { href: "/", label: "首页" },
  ...(crumbs.length ? crumbs.map((c) => ({ href: `/category/${c.id}`, label: c.title })) : [{ href: "/category", label: "文档分类" }]),
  { label: title },
];

function Keywords({ text }: { text: string }) {
  const words = [...new Set(text.split(/[\s,，;；、]+/).map((w) => w.trim()).filter(Boolean))].slice(0, 12);
  if (!words.length) return null;
  return <p className="reader-keywords">{words.map((w) => <a key={w} className="chip" href={`/search?wd=${encodeURIComponent(w)}&type=0`}>{w}</a>)}</p>;
}

function Side({ doc, uploader, related, creditName }: Pick<ReaderViewProps, "doc" | "uploader" | "related" | "creditName">) {
  return (
    <aside className="reader-side">
      {uploader ? (
        <section className="card reader-uploader">
          <a className="reader-uploader-link" href={`/user/${uploader.id}`}>
            <Avatar src={uploader.avatar} name={uploader.username} size={44} />
            <span><strong className="reader-uploader-name">{uploader.username}<VipBadge until={uploader.vip_until} /></strong><span className="muted">{`上传文档 ${uploader.doc_count} 篇`}</span></span>
          </a>
        </section>
      ) : null}
      <section className="card reader-info">
        <h2 className="card-title">文档信息</h2>
        <dl>
          <dt>文档格式</dt><dd>{doc.ext.replace(/^\./, "").toUpperCase()}</dd>
          <dt>文档页数</dt><dd>{`${doc.pages} 页`}</dd>
          <dt>文档大小</dt><dd>{formatBytes(doc.size)}</dd>
          <dt>下载价格</dt><dd>{doc.price > 0 ? `${doc.price} ${creditName}` : "免费"}</dd>
          <dt>上传时间</dt><dd>{formatDateTime(doc.created_at)}</dd>
        </dl>
      </section>
      {related.length ? (
        <section className="card reader-related">
          <h2 className="card-title">相关文档</h2>
          <DocumentLines docs={related} />
        </section>
      ) : null}
    </aside>
  );
}

/**
 * The reader page. What depends on the reader (toolbar, the pages they may read and the notice
 * after them, comments) are Personal parts (ReaderPersonal.tsx); the rest is the same for everyone.
 */
export function ReaderView({ doc, crumbs, uploader, related, creditName, asked, commentSort }: ReaderViewProps) {
  return (
    <div className="container reader">
      <AdSlot position="document_top" />
      <Breadcrumb items={crumbItems(crumbs, doc.title)} />
      <div className="reader-layout">
        <div className="reader-main">
          <header className="card reader-head">
            <h1 className="reader-title"><ExtBadge ext={doc.ext} /><span>{doc.title}</span></h1>
            <p className="reader-meta">
              {uploader ? <a href={`/user/${uploader.id}`}>{uploader.username}</a> : null}
              <time dateTime={new Date(doc.created_at).toISOString()}>{formatDateTime(doc.created_at)}</time>
              <span>{`${doc.pages} 页`}</span>
              <span>{formatBytes(doc.size)}</span>
              <span>{`${compactCount(doc.view_count)} 浏览`}</span>
              <span>{`${compactCount(doc.download_count)} 下载`}</span>
              <span>{`${compactCount(doc.favorite_count)} 收藏`}</span>
              <Stars score={doc.score} count={doc.score_count} />
            </p>
            {doc.description ? <p className="reader-desc">{doc.description}</p> : null}
            <Keywords text={doc.keywords} />
            <div className="reader-toolbar">
              <PersonalToolbar doc={doc} />
            </div>
          </header>
          <PersonalBody doc={doc} asked={asked} />
          <AdSlot position="document_bottom" />
          <section id="comments" className="card reader-comments" aria-labelledby="comments-title"><PersonalComments doc={doc} sort={commentSort} /></section>
        </div>
        <Side doc={doc} uploader={uploader} related={related} creditName={creditName} />
      </div>
    </div>
  );
}
