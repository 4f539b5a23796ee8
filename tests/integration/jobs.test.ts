// The queue's promise across real processes: a worker killed with SIGKILL mid-job leaves the job to
// the next worker, which finishes it exactly once; a worker that lost its lease cannot complete.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { getSqlite } from "#db/client.ts";
import { enqueue, getJob } from "#src/jobs/queue.ts";
import { useTempDatabase } from "../helpers/testDb.ts";

const root = resolve(import.meta.dir, "../..");
let db: ReturnType<typeof useTempDatabase>;
let marks: string;
const procs: Subprocess<"ignore", "pipe", "pipe">[] = [];

beforeAll(() => {
  db = useTempDatabase();
  getSqlite().exec("CREATE TABLE job_effects (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, worker TEXT NOT NULL)");
});
afterAll(() => db.cleanup());

beforeEach(() => {
  marks = join(db.dir, `marks-${crypto.randomUUID().slice(0, 8)}`);
  mkdirSync(marks);
});
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.kill("SIGKILL");
    await p.exited;
  }
  rmSync(marks, { recursive: true, force: true });
});

function spawnWorker(name: string) {
  const p = Bun.spawn(["bun", "tests/helpers/jobWorker.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: db.dir, WORKER_NAME: name, MARK_DIR: marks, LOG_LEVEL: "warn", NODE_ENV: "test" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  procs.push(p);
  return p;
}

async function waitFor(what: string, ok: () => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const startedLines = (name: string) => {
  const f = join(marks, `${name}.started`);
  return existsSync(f) ? readFileSync(f, "utf8").trim().split("\n") : [];
};
/** Reads a worker's stderr until `re` matches or 10 s pass; returns what was read. */
async function readUntil(p: Subprocess<"ignore", "pipe", "pipe">, re: RegExp) {
  let text = "";
  const reader = p.stderr.getReader();
  const dec = new TextDecoder();
  const deadline = Date.now() + 10_000;
  while (!re.test(text) && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (!chunk || chunk.done) break;
    text += dec.decode(chunk.value);
  }
  reader.releaseLock();
  return text;
}

/** The lease owner id a worker process announced on its first stdout line. */
async function workerId(p: Subprocess<"ignore", "pipe", "pipe">) {
  const reader = p.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return /^ready (\S+)/.exec(new TextDecoder().decode(value))?.[1] ?? "";
}

const effects = (jobId: number) => getSqlite().query("SELECT worker FROM job_effects WHERE job_id = ?").all(jobId) as { worker: string }[];

describe("job queue across processes", () => {
  test("kill -9 mid-job: the next worker finishes it once, on attempt 2", async () => {
    const job = enqueue("test.effect", { n: 1 });
    writeFileSync(join(marks, "hang-A"), "");
    const a = spawnWorker("A");
    await waitFor("worker A to start the job", () => startedLines("A").length === 1);
    expect(getJob(job.id)).toMatchObject({ status: "running", attempts: 1 });

    a.kill("SIGKILL");
    expect(await a.exited).not.toBe(0);
    expect(a.signalCode).toBe("SIGKILL");
    // Still leased to the dead process: only the next worker's start-up check frees it.
    expect(getJob(job.id)!.status).toBe("running");

    const b = spawnWorker("B");
    await waitFor("the job to complete", () => getJob(job.id)!.status === "done");
    const done = getJob(job.id)!;
    expect(done.attempts).toBe(2);
    expect(JSON.parse(done.result)).toEqual({ by: "B" });
    expect(done.lease_owner).toBeNull();

    // B keeps polling: give it several rounds to prove nothing runs the job again.
    await Bun.sleep(400);
    expect(effects(job.id)).toEqual([{ worker: "B" }]);
    expect(startedLines("A")).toEqual([`${job.id}:1`]);
    expect(startedLines("B")).toEqual([`${job.id}:2`]);
    expect(getJob(job.id)).toMatchObject({ status: "done", attempts: 2 });

    b.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  }, 30_000);

  test("a stalled worker whose lease was taken over cannot complete", async () => {
    const job = enqueue("test.effect", { n: 2 });
    writeFileSync(join(marks, "hang-A"), "");
    writeFileSync(join(marks, "hang-B"), "");
    const a = spawnWorker("A");
    await waitFor("worker A to start the job", () => startedLines("A").length === 1);

    // Freeze A (a long GC pause, a stuck disk) and let its lease run out.
    a.kill("SIGSTOP");
    getSqlite().query("UPDATE jobs SET lease_until = ? WHERE id = ?").run(Date.now() - 1, job.id);

    const b = spawnWorker("B");
    await waitFor("B to take the job over", () => startedLines("B").length === 1);
    const bId = getJob(job.id)!.lease_owner;
    expect(bId).toBe(await workerId(b));
    expect(getJob(job.id)).toMatchObject({ status: "running", attempts: 2 });

    // A wakes up and finishes its stale run while B still holds the job: its completion is refused.
    writeFileSync(join(marks, "release-A"), "");
    a.kill("SIGCONT");
    expect(await readUntil(a, /result discarded|租约丢失/)).toMatch(/result discarded|租约丢失/);
    expect(effects(job.id)).toEqual([]);
    expect(getJob(job.id)).toMatchObject({ status: "running", attempts: 2, lease_owner: bId });

    writeFileSync(join(marks, "release-B"), "");
    await waitFor("B to complete the job", () => getJob(job.id)!.status === "done");
    expect(effects(job.id)).toEqual([{ worker: "B" }]);
    expect(getJob(job.id)).toMatchObject({ status: "done", attempts: 2, result: JSON.stringify({ by: "B" }) });
  }, 30_000);
});
