// kill -9 of the real server (src/server.ts) while it converts a document: after a restart the
// document finishes converting exactly once — one completion, one row per page, attempt 2 — and
// the first attempt's work dir and LibreOffice processes are cleaned up.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { enqueueConversion } from "#src/features/convert/enqueue.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { getJob } from "#src/jobs/queue.ts";
import { addDocument, bombDocx, docRow, leftovers, markedProcesses as marked, root, samples, setupConvertTests } from "./convert-fixtures.ts";

let t: ReturnType<typeof setupConvertTests>;
const procs: Subprocess[] = [];
beforeAll(() => {
  t = setupConvertTests();
});
afterAll(async () => {
  for (const p of procs) {
    p.kill("SIGKILL");
    await p.exited;
  }
  t.cleanup();
});

const server = () => {
  const p = Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: t.dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", NODE_ENV: "test", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "admin-password-1" },
    stdin: "ignore", stdout: "ignore", stderr: "ignore",
  });
  procs.push(p);
  return p;
};

async function waitFor(what: string, ok: () => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

const markedProcesses = () => marked(t.dir);

test("kill -9 during conversion: the restarted server converts the document exactly once", async () => {
  // 10,000 paragraphs: LibreOffice works on it for a few seconds, a wide window to kill the server in.
  const doc = addDocument(t.owner.id, await bombDocx(10), "docx");
  const job = enqueueConversion(doc.id);

  const a = server();
  await waitFor("the conversion to start", () => docRow(doc.id).status === DOC_STATUS.converting && getJob(job.id)!.status === "running");
  await waitFor("LibreOffice to start", () => markedProcesses().length > 0, 10_000);
  expect(getJob(job.id)!.attempts).toBe(1);
  a.kill("SIGKILL");
  await a.exited;
  expect(a.signalCode).toBe("SIGKILL");
  // The dead server's soffice, detached in its own process group, is still running on.
  const orphans = markedProcesses();
  expect(orphans.length).toBeGreaterThan(0);
  expect(docRow(doc.id).status).toBe(DOC_STATUS.converting);
  expect(leftovers()).toEqual([`convert-${job.id}-1`]);

  server();
  await waitFor("the conversion to finish", () => getJob(job.id)!.status === "done", 90_000);
  const done = getJob(job.id)!;
  expect(done.attempts).toBe(2);
  const row = docRow(doc.id);
  expect({ status: row.status, error: row.convert_error }).toEqual({ status: DOC_STATUS.converted, error: "" });
  expect(row.pages).toBeGreaterThan(100);
  expect(JSON.parse(done.result)).toMatchObject({ document_id: doc.id, pages: row.pages });
  const pages = getSqlite().query("SELECT page, COUNT(*) AS n FROM document_page WHERE document_id = ? GROUP BY page").all(doc.id) as { page: number; n: number }[];
  expect(pages.length).toBe(row.pages);
  expect(pages.every((p) => p.n === 1)).toBe(true);
  // Attempt 2 killed what attempt 1 left running and removed its work dir; its own is gone too.
  expect(orphans.filter((pid) => markedProcesses().includes(pid))).toEqual([]);
  expect(leftovers()).toEqual([]);

  // Nothing runs it again.
  await Bun.sleep(500);
  expect(getJob(job.id)).toMatchObject({ status: "done", attempts: 2 });
}, 150_000);

test("the sample DOCX converts in a real server too", async () => {
  const doc = addDocument(t.owner.id, new Uint8Array(readFileSync(join(samples, "工作总结模板.docx"))), "docx");
  const job = enqueueConversion(doc.id);
  await waitFor("the conversion", () => getJob(job.id)!.status === "done", 60_000);
  expect(docRow(doc.id)).toMatchObject({ status: DOC_STATUS.converted, pages: 3 });
}, 70_000);
