import { and, inArray, isNull } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { reconvert, reconvertFailed } from "#src/features/convert/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { notFound } from "#src/lib/errors.ts";
import { refreshCategoryCounts } from "./counts.ts";
import { DOCUMENT_NOT_FOUND } from "./policy.ts";

/**
 * Admin "reconvert": the chosen documents (outside the recycle bin) or every failed one. A
 * converted document leaves the public lists until its new conversion is done, so counts follow.
 */
export function reconvertDocuments(q: { id?: number[]; all_failed?: boolean }): number {
  let n = 0;
  if (q.id?.length) {
    const rows = getDb().select({ id: document.id }).from(document).where(and(inArray(document.id, q.id), isNull(document.deleted_at))).all();
    if (!rows.length) throw notFound(DOCUMENT_NOT_FOUND);
    for (const r of rows) if (reconvert(r.id)) n++;
  }
  if (q.all_failed) n += reconvertFailed();
  refreshCategoryCounts();
  bumpContentVersion();
  return n;
}
