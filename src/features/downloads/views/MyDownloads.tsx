import DownloadButton from "#islands/reader/DownloadButton.tsx";
import { ExtBadge } from "#src/views/components/DocumentCard.tsx";
import { Island } from "#src/views/Island.tsx";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { EmptyState } from "#src/features/me/views/parts.tsx";
import { listUserDownloads } from "../service.ts";

const PAGE_SIZE = 20;

/** /me/download: the signed-in user's downloads, newest first, each with a re-download button. */
export function MyDownloads({ userId, page, creditName }: { userId: number; page: number; creditName: string }) {
  const { total, download: rows } = listUserDownloads(userId, page, PAGE_SIZE);
  if (!total) return <EmptyState icon="doc" title="还没有下载记录" text="下载过的文档会记录在这里，方便再次查找。" action={{ href: "/", label: "去发现文档" }} />;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <>
      <p className="muted download-total">共 {total} 条下载记录</p>
      <table className="ledger my-downloads">
        <thead>
          <tr><th>文档</th><th className="num">大小</th><th className="num">花费</th><th>下载时间</th><th className="num">操作</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td className="my-download-title">
                <ExtBadge ext={r.document.ext} />
                {r.document.available ? <a href={`/document/${r.document.uuid}`} title={r.document.title}>{r.document.title}</a> : <span className="muted" title={r.document.title}>{r.document.title}</span>}
                {r.document.pages > 0 ? <span className="muted"> · {r.document.pages}页</span> : null}
              </td>
              <td className="num muted">{formatBytes(r.document.size)}</td>
              <td className="num">{r.price > 0 ? `${r.price} ${creditName}` : "免费"}</td>
              <td className="muted">{formatDateTime(r.created_at)}</td>
              <td className="num">
                {r.document.available
                  ? <Island name="DownloadButton" component={DownloadButton} props={{ uuid: r.document.uuid, price: r.redownload_price, ext: r.document.ext, sizeText: formatBytes(r.document.size), creditName, loggedIn: true, compact: true }} />
                  : <span className="muted">已下架</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {page > 1 ? <a className="btn btn-sm" href={`/me/download?page=${page - 1}`}>上一页</a> : null}
          <span className="muted">{page} / {pages}</span>
          {page < pages ? <a className="btn btn-sm" href={`/me/download?page=${page + 1}`}>下一页</a> : null}
        </nav>
      ) : null}
    </>
  );
}
