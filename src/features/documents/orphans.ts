import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { imageTmpDir } from "#src/features/admin/attachment/storage.ts";
import { log } from "#src/http/requestLog.ts";
import { registerJob } from "#src/jobs/worker.ts";
import { uploadTmpDir } from "./paths.ts";
import { removeDocumentFiles } from "./storage.ts";
import { ATTACHMENT_DOCUMENT } from "./upload.ts";

// Uploaded files that never became documents (the user closed the page before "submit") and
// temp files of uploads cut off by a crash are removed after a grace period. A file is deleted
// only when no document and no younger upload uses its hash.

export const UNUSED_UPLOAD_GRACE_MS = 24 * 3600_000;
export const PURGE_UPLOADS_JOB = "uploads.purge_unused";

export function purgeUnusedUploads(now = Date.now(), graceMs = UNUSED_UPLOAD_GRACE_MS): { attachments: number; files: number; temps: number } {
  const sqlite = getSqlite();
  const cutoff = now - graceMs;
  const gone = sqlite.transaction(() => {
    const stale = sqlite.query(
      `SELECT a.id, a.hash FROM attachment a WHERE a.type = ? AND a.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM document d WHERE d.attachment_id = a.id) LIMIT 5000`,
    ).all(ATTACHMENT_DOCUMENT, cutoff) as { id: number; hash: string }[];
    if (!stale.length) return { rows: 0, hashes: [] as string[] };
    const del = sqlite.query("DELETE FROM attachment WHERE id = ?");
    for (const r of stale) del.run(r.id);
    // Type 8 (spider downloads) keep their originals in the same place: theirs count as used too.
    const used = sqlite.query(
      `SELECT (SELECT COUNT(*) FROM document WHERE hash = ?1) + (SELECT COUNT(*) FROM attachment WHERE type IN (?2, 8) AND hash = ?1) AS n`,
    );
    const hashes = [...new Set(stale.map((r) => r.hash))].filter((h) => /^[0-9a-f]{32}$/.test(h) && (used.get(h, ATTACHMENT_DOCUMENT) as { n: number }).n === 0);
    return { rows: stale.length, hashes };
  }).immediate();
  // Same JS turn as the commit: no upload can claim one of these hashes in between.
  for (const h of gone.hashes) removeDocumentFiles(h);
  const temps = removeOldTemps(uploadTmpDir(), cutoff) + removeOldTemps(imageTmpDir(), cutoff);
  return { attachments: gone.rows, files: gone.hashes.length, temps };
}

/** Spooled upload bodies left by a process that died mid-upload. */
function removeOldTemps(dir: string, cutoff: number): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".part")) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).mtimeMs < cutoff) {
        rmSync(p, { force: true });
        n++;
      }
    } catch {}
  }
  return n;
}

registerJob(PURGE_UPLOADS_JOB, async () => {
  const r = purgeUnusedUploads();
  if (r.attachments || r.temps) log("info", "unused uploads removed", r);
  return { result: r };
}, { everyMs: 6 * 3600_000 });
