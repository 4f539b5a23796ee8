import { DocumentList } from "#src/views/components/DocumentCard.tsx";
import { listDocuments } from "../service.ts";

export const USER_DOCS_PAGE = 20;

/** Body of /user/{id}/document: the user's visible documents, newest first, with plain links to page. */
export function UserDocuments({ userId, page, empty }: { userId: number; page: number; empty: React.ReactNode }) {
  const { total, document: docs } = listDocuments({ page, size: USER_DOCS_PAGE, status: [], user_id: userId }, "public");
  if (!docs.length) return <>{empty}</>;
  const pages = Math.ceil(total / USER_DOCS_PAGE);
  return (
    <>
      <DocumentList docs={docs} variant="row" />
      {pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {page > 1 ? <a className="btn btn-sm" href={`/user/${userId}/document?page=${page - 1}`}>上一页</a> : null}
          <span className="muted">{page} / {pages}</span>
          {page < pages ? <a className="btn btn-sm" href={`/user/${userId}/document?page=${page + 1}`}>下一页</a> : null}
        </nav>
      ) : null}
    </>
  );
}
