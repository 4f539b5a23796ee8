import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { document } from "#db/schema/documents.ts";
import { visibleArticle } from "#src/features/articles/listing.ts";
import { visibleDocument } from "#src/features/documents/status.ts";
import { badRequest, notFound } from "#src/lib/errors.ts";

// What a comment or a report hangs on: a document or an article, never both.

export type TargetKind = "document" | "article";
export interface TargetRef { kind: TargetKind; id: number }
export interface Target extends TargetRef { title: string; url: string; user_id: number }

export const TARGET_LABEL: Record<TargetKind, string> = { document: "文档", article: "文章" };
export const targetGone = (kind: TargetKind) => notFound(`${TARGET_LABEL[kind]}不存在或已被删除`);

/** `{ document_id }` or `{ article_id }` (exactly one) as a reference. */
export function targetOf(input: { document_id?: number | null; article_id?: number | null }): TargetRef {
  const doc = input.document_id ?? 0;
  const art = input.article_id ?? 0;
  if ((doc > 0) === (art > 0)) throw badRequest("请指定一篇文档或一篇文章");
  return doc > 0 ? { kind: "document", id: doc } : { kind: "article", id: art };
}

export const documentUrl = (uuid: string) => `/document/${uuid}`;
export const articleUrl = (identifier: string) => `/article/${identifier}`;

function loadTarget(ref: TargetRef, onlyVisible: boolean): Target | undefined {
  if (ref.kind === "document") {
    const d = getDb().select({ id: document.id, title: document.title, uuid: document.uuid, user_id: document.user_id })
      .from(document).where(onlyVisible ? and(eq(document.id, ref.id), visibleDocument()) : eq(document.id, ref.id)).get();
    return d && { kind: "document", id: d.id, title: d.title, url: documentUrl(d.uuid), user_id: d.user_id };
  }
  const a = getDb().select({ id: article.id, title: article.title, identifier: article.identifier, user_id: article.user_id })
    .from(article).where(onlyVisible ? and(eq(article.id, ref.id), visibleArticle()) : eq(article.id, ref.id)).get();
  return a && { kind: "article", id: a.id, title: a.title, url: articleUrl(a.identifier), user_id: a.user_id };
}

export const isTargetVisible = (ref: TargetRef) => !!loadTarget(ref, true);

/** The target as visitors may see it, or 404 (hidden, in the recycle bin or missing look the same). */
export function visibleTarget(ref: TargetRef): Target {
  const t = loadTarget(ref, true);
  if (!t) throw targetGone(ref.kind);
  return t;
}

/** The target whatever its state (admin actions on reported items), or 404 once it is purged. */
export function anyTarget(ref: TargetRef): Target {
  const t = loadTarget(ref, false);
  if (!t) throw targetGone(ref.kind);
  return t;
}
