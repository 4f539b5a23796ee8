import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { document } from "#db/schema/documents.ts";
import Comments from "#islands/comment/Comments.tsx";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { Island } from "#src/views/Island.tsx";
import { listComments } from "../list.ts";
import { commentSettings, isCommentModerator } from "../policy.ts";
import { asSort } from "../status.ts";
import { isTargetVisible, type TargetRef } from "../targets.ts";

export const COMMENTS_PAGE_SIZE = 10;

export interface CommentsSectionProps {
  /** `{ document_id }` on the reader page, `{ article_id }` on the article page */
  target: { document_id: number } | { article_id: number };
  /** c.get("user") */
  viewer: SessionUser | null | undefined;
  /** the page's path (no query): 登录 and the sort links lead back to it */
  path: string;
  /** c.req.query("comment_sort"): "hot" or newest first */
  sort?: string;
}

const shownCount = (ref: TargetRef) => (ref.kind === "document"
  ? getDb().select({ n: document.comment_count }).from(document).where(eq(document.id, ref.id)).get()?.n
  : getDb().select({ n: article.comment_count }).from(article).where(eq(article.id, ref.id)).get()?.n) ?? 0;

/**
 * The comments of a document or an article, rendered on the server with the first page of
 * threads and hydrated as the Comments island. The host page puts it inside its
 * `<section id="comments">`; anonymous output is the same for everyone, so the page stays cacheable.
 */
export function CommentsSection({ target, viewer, path, sort }: CommentsSectionProps) {
  const ref: TargetRef = "document_id" in target ? { kind: "document", id: target.document_id } : { kind: "article", id: target.article_id };
  const cfg = commentSettings();
  if (!isTargetVisible(ref)) {
    return <div className="cmt"><p className="cmt-note muted">{`${ref.kind === "document" ? "文档" : "文章"}审核通过并公开后才能评论`}</p></div>;
  }
  const who = viewer ? { id: viewer.id, moderator: isCommentModerator(viewer) } : null;
  const order = asSort(sort);
  const first = listComments({ ...target, sort: order, page: 1, size: COMMENTS_PAGE_SIZE }, who);
  const props = {
    target, path, count: shownCount(ref), initial: first, sort: order, pageSize: COMMENTS_PAGE_SIZE, viewer: who,
    settings: { enable: cfg.enable, captcha: cfg.captcha, maxLength: cfg.maxLength, allowLink: cfg.allowLink },
  };
  // Comments sit below the document or article: their code loads when the reader scrolls near them.
  return <Island name="Comments" component={Comments} props={props} hydrate="visible" />;
}
