import { and, eq, gt, inArray, ne } from "drizzle-orm";
import { existsSync } from "node:fs";
import { getDb, getSqlite } from "#db/client.ts";
import { document, documentPage } from "#db/schema/documents.ts";
import { coverPath, pagePath } from "#src/features/documents/paths.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import type { PageExt } from "./pdf.ts";
import { chainsOf } from "#src/features/documents/categories.ts";
import { refreshCategoryCounts } from "#src/features/documents/counts.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { indexDocument, type Presegmented } from "#src/features/search/indexer.ts";
import { awardUploadIfPublic } from "#src/features/credits/uploadAward.ts";
import { afterConversion } from "./after.ts";

// The document rows a conversion reads and writes. The write functions run inside the job's
// completion transaction (its `effects`), so a document's outcome is committed exactly once.

export type DocRow = typeof document.$inferSelect;

/** Public URL of a document's cover thumbnail (served from coverPath(hash) by the reader routes). */
export const coverUrl = (uuid: string) => `/view/cover/${uuid}.png`;

// Statuses a conversion moves through 1 (converting). Review (6), disabled (4) and rejected (7)
// are decisions of people: the converter fills in the pages but leaves those statuses alone.
const CONVERTIBLE: number[] = [DOC_STATUS.pending, DOC_STATUS.converting, DOC_STATUS.failed, DOC_STATUS.reconvert];

export const loadDocument = (id: number): DocRow | null => getDb().select().from(document).where(eq(document.id, id)).get() ?? null;

export function markConverting(id: number) {
  getDb().update(document).set({ status: DOC_STATUS.converting, updated_at: Date.now() })
    .where(and(eq(document.id, id), inArray(document.status, CONVERTIBLE))).run();
}

export interface Outcome {
  pages: number;
  preview: number;
  width: number;
  height: number;
  size?: number;
  texts: string[];
  description: string;
  keywords: string[];
  /** pages with images on disk when reusing another document's files; absent: freshly rendered, the preview only */
  rendered?: number;
  /** the index rows segmented before the commit (textWork.ts), for `texts` exactly */
  pre?: Presegmented;
}

/** Success: numbers, cover, text per page; 0/1/3/5 → 2, review/disabled/rejected kept; blank metadata filled. */
export function applySuccess(id: number, o: Outcome) {
  const cur = loadDocument(id);
  if (!cur) return;
  // A fresh conversion replaced the shared pages folder with the preview pages only.
  const rendered = o.rendered ?? o.preview;
  getDb().update(document).set({
    pages: o.pages, preview: o.preview, rendered_pages: rendered, width: o.width, height: o.height,
    ...(o.size && !cur.size ? { size: o.size } : {}),
    cover: coverUrl(cur.uuid), convert_error: "",
    status: CONVERTIBLE.includes(cur.status) ? DOC_STATUS.converted : cur.status,
    description: cur.description.trim() ? cur.description : o.description,
    keywords: cur.keywords.trim() ? cur.keywords : o.keywords.join(","),
    updated_at: Date.now(),
  }).where(eq(document.id, id)).run();
  // Same-file documents share the page files just replaced: keep their numbers in step.
  getDb().update(document).set({ pages: o.pages, preview: o.preview, ...(o.rendered === undefined ? { rendered_pages: o.preview } : {}), width: o.width, height: o.height, updated_at: Date.now() })
    .where(and(eq(document.hash, cur.hash), ne(document.id, id), gt(document.pages, 0))).run();
  // Replace, never add: a retried or repeated conversion leaves exactly one row per page.
  getDb().delete(documentPage).where(eq(documentPage.document_id, id)).run();
  const insert = getSqlite().query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  o.texts.forEach((text, i) => insert.run(id, i + 1, text));
  // Public now (no review pending): the upload award is paid here, in the same commit.
  awardUploadIfPublic(id);
  indexDocument(id, undefined, o.pre);
  visibilityChanged(id);
  // OCR of pages without a text layer, or straight on to the embeddings.
  afterConversion(id);
}

/** A finished conversion can make a document visible or hidden: category counts and cached pages follow. */
function visibilityChanged(id: number) {
  refreshCategoryCounts(chainsOf([id]));
  bumpContentVersion();
}

/** Failure: status 3 with the message (disabled/rejected documents keep their status, get the message). */
export function applyFailure(id: number, message: string) {
  const cur = loadDocument(id);
  if (!cur) return;
  const keep = cur.status === DOC_STATUS.disabled || cur.status === DOC_STATUS.rejected;
  getDb().update(document).set({ status: keep ? cur.status : DOC_STATUS.failed, convert_error: message.slice(0, 500), updated_at: Date.now() })
    .where(eq(document.id, id)).run();
  visibilityChanged(id);
}

/**
 * The conversion job ran out of attempts without reporting (its worker was killed or timed out each
 * time): a document still waiting for that conversion becomes failed (3) with the reason, unless
 * another conversion of it is queued or running. Called in the transaction that fails the job.
 */
export function applyExhausted(id: number, message: string, conversionPending: (id: number) => boolean) {
  const cur = loadDocument(id);
  if (!cur || conversionPending(id)) return;
  const waiting = CONVERTIBLE.includes(cur.status) && cur.status !== DOC_STATUS.failed;
  const reviewWithoutPages = cur.status === DOC_STATUS.pendingReview && cur.pages === 0;
  if (cur.status === DOC_STATUS.converted || !(waiting || reviewWithoutPages)) return;
  applyFailure(id, message);
}

/**
 * Another document made from the same file whose conversion finished and whose files are on disk
 * in the page format now configured; its results can be copied instead of converting again.
 */
export function findReusable(doc: DocRow, ext: PageExt): DocRow | null {
  const candidates = getDb().select().from(document).where(and(
    eq(document.hash, doc.hash), ne(document.id, doc.id), gt(document.pages, 0), eq(document.convert_error, ""),
    inArray(document.status, [DOC_STATUS.converted, DOC_STATUS.disabled, DOC_STATUS.pendingReview, DOC_STATUS.rejected]),
  )).all();
  return candidates.find((c) => {
    if (!existsSync(coverPath(c.hash))) return false;
    if (c.preview < 1) return true;
    return existsSync(pagePath(c.hash, 1, ext)) && existsSync(pagePath(c.hash, c.preview, ext));
  }) ?? null;
}

export function pageTextsOf(id: number): string[] {
  const rows = getDb().select({ page: documentPage.page, text: documentPage.text }).from(documentPage)
    .where(eq(documentPage.document_id, id)).orderBy(documentPage.page).all();
  return rows.map((r) => r.text);
}
