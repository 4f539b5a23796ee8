// The labelled set's library: every file of assets/samples converted by the real conversion job
// (the tools, page splitting, text extraction and search indexing the site uses) into a temp
// database, so the harness measures retrieval over the page texts a real site would hold.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { enqueueConversion } from "#src/features/convert/enqueue.ts";
import "#src/features/convert/job.ts";
import { originalPath, setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { getJob } from "#src/jobs/queue.ts";
import { startWorker } from "#src/jobs/worker.ts";

export const SAMPLES_DIR = resolve(import.meta.dir, "../../../assets/samples");

export interface LibraryDoc { file: string; id: number; title: string; pages: number }
export interface Library { ownerId: number; docs: LibraryDoc[]; byFile: Map<string, LibraryDoc> }

/** Converts every sample into the configured (temp) database; `dir` holds the document files. */
export async function buildLibrary(dir: string): Promise<Library> {
  setDocumentsRoot(join(dir, "documents"));
  // Every page rendered and readable: the harness asks as the owner, who may read them all anyway.
  getSqlite().query("INSERT INTO config (category, name, value) VALUES ('converter', 'max_preview', '1000'), ('converter', 'enable_gzip', 'false')").run();
  invalidateSettings();
  const owner = getDb().insert(user).values({ username: "bench-retrieval", password: "x" }).returning().get();
  const files = readdirSync(SAMPLES_DIR).sort();
  const jobs: { file: string; id: number; job: number }[] = [];
  for (const file of files) {
    const ext = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
    const bytes = readFileSync(join(SAMPLES_DIR, file));
    const hash = new Bun.CryptoHasher("md5").update(bytes).digest("hex");
    mkdirSync(join(originalPath(hash, ext), ".."), { recursive: true });
    writeFileSync(originalPath(hash, ext), bytes);
    const title = file.replace(/\.[^.]+$/, "");
    const doc = getDb().insert(document).values({ uuid: crypto.randomUUID(), title, user_id: owner.id, hash, ext, size: bytes.length }).returning().get();
    jobs.push({ file, id: doc.id, job: enqueueConversion(doc.id).id });
  }
  const worker = startWorker({ concurrency: 2, pollMs: 20 });
  const deadline = Date.now() + 10 * 60_000;
  try {
    while (jobs.some((j) => !["done", "failed"].includes(getJob(j.job)!.status))) {
      if (Date.now() > deadline) throw new Error("sample conversion did not finish in 10 minutes");
      await Bun.sleep(50);
    }
  } finally {
    await worker.stop();
  }
  const docs: LibraryDoc[] = [];
  for (const j of jobs) {
    const row = getSqlite().query<{ title: string; pages: number; status: number; convert_error: string }, [number]>("SELECT title, pages, status, convert_error FROM document WHERE id = ?").get(j.id)!;
    if (row.status !== 2) throw new Error(`${j.file}: conversion failed: ${row.convert_error}`);
    docs.push({ file: j.file, id: j.id, title: row.title, pages: row.pages });
  }
  return { ownerId: owner.id, docs, byFile: new Map(docs.map((d) => [d.file, d])) };
}

export const pageText = (documentId: number, page: number) =>
  getSqlite().query<{ text: string }, [number, number]>("SELECT text FROM document_page WHERE document_id = ? AND page = ?").get(documentId, page)?.text ?? "";
