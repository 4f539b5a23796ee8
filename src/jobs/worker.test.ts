import { afterAll, beforeAll, afterEach, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { getDb, getSqlite } from "#db/client.ts";
import { jobs } from "#db/schema/jobs.ts";
import { useTempDatabase } from "#tests/helpers/testDb.ts";
import { enqueue, getJob } from "./queue.ts";
import { registerJob, startWorker } from "./worker.ts";

let db: ReturnType<typeof useTempDatabase>;
beforeAll(() => {
  db = useTempDatabase();
});
afterAll(() => db.cleanup());
afterEach(() => getSqlite().exec("DELETE FROM jobs"));

async function until(ok: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(10);
  }
}

describe("worker", () => {
  test("runs a handler and commits its result and effects", async () => {
    const seen: unknown[] = [];
    registerJob("w.ok", async ({ payload, progress }) => {
      seen.push(payload);
      progress(50);
      return { result: { pages: 3 }, effects: () => void enqueue("w.followup") };
    });
    const job = enqueue("w.ok", { doc: "abc" });
    const w = startWorker({ pollMs: 10 });
    await until(() => getJob(job.id)!.status === "done");
    await w.stop();
    expect(seen).toEqual([{ doc: "abc" }]);
    expect(getJob(job.id)).toMatchObject({ attempts: 1, result: '{"pages":3}', progress: 100 });
    expect(getDb().select().from(jobs).where(eq(jobs.kind, "w.followup")).all()).toHaveLength(1);
  });

  test("a throwing handler is retried later with its error recorded", async () => {
    registerJob("w.bad", async () => {
      throw new Error("找不到 mutool，请安装 mupdf-tools");
    });
    const job = enqueue("w.bad");
    const w = startWorker({ pollMs: 10 });
    await until(() => getJob(job.id)!.status === "queued" && getJob(job.id)!.attempts === 1);
    await w.stop();
    const j = getJob(job.id)!;
    expect(j.error).toBe("找不到 mutool，请安装 mupdf-tools");
    expect(j.run_after).toBeGreaterThan(Date.now());
  });

  test("a handler that ignores its timeout frees the slot and fails the attempt", async () => {
    registerJob("w.hang", () => new Promise(() => {}), { timeoutMs: 50 });
    registerJob("w.quick", async () => ({ result: "ok" }));
    const hung = enqueue("w.hang");
    const quick = enqueue("w.quick");
    const w = startWorker({ pollMs: 10, concurrency: 1 });
    await until(() => getJob(quick.id)!.status === "done");
    await w.stop();
    expect(getJob(hung.id)).toMatchObject({ status: "queued", attempts: 1, error: "任务超时" });
  });

  test("concurrency limits how many jobs run at once", async () => {
    let now = 0;
    let peak = 0;
    registerJob("w.slow", async () => {
      peak = Math.max(peak, ++now);
      await Bun.sleep(30);
      now--;
    });
    const ids = Array.from({ length: 6 }, () => enqueue("w.slow").id);
    const w = startWorker({ pollMs: 10, concurrency: 2 });
    await until(() => ids.every((id) => getJob(id)!.status === "done"));
    await w.stop();
    expect(peak).toBe(2);
  });

  test("stop() aborts jobs still running after the grace period; they are retried later", async () => {
    let aborted = false;
    registerJob("w.long", ({ signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => {
      aborted = true;
      reject(signal.reason);
    })));
    const job = enqueue("w.long");
    const w = startWorker({ pollMs: 10, stopGraceMs: 50 });
    await until(() => getJob(job.id)!.status === "running");
    await w.stop();
    expect(aborted).toBe(true);
    expect(getJob(job.id)).toMatchObject({ status: "queued", attempts: 1, error: "服务停止，任务稍后重试" });
  });

  test("a recurring kind keeps exactly one run scheduled", async () => {
    let runs = 0;
    registerJob("w.every", async () => {
      runs++;
    }, { everyMs: 3600_000 });
    const w = startWorker({ pollMs: 10 });
    await until(() => runs === 1 && getDb().select().from(jobs).where(and(eq(jobs.kind, "w.every"), eq(jobs.status, "queued"))).all().length === 1);
    await w.stop();
    const rows = getDb().select().from(jobs).where(eq(jobs.kind, "w.every")).all();
    expect(rows.map((r) => r.status).sort()).toEqual(["done", "queued"]);
    expect(rows.find((r) => r.status === "queued")!.run_after).toBeGreaterThan(Date.now() + 3500_000);
    // A restart does not add a second one.
    const again = startWorker({ pollMs: 10 });
    await again.stop();
    expect(getDb().select().from(jobs).where(eq(jobs.kind, "w.every")).all()).toHaveLength(2);
  });

  test("a recurring kind that fails for good is still scheduled again", async () => {
    registerJob("w.every-bad", async () => {
      throw new Error("清理失败");
    }, { everyMs: 3600_000 });
    getSqlite().query("INSERT INTO jobs (kind, max_attempts) VALUES ('w.every-bad', 1)").run();
    const w = startWorker({ pollMs: 10 });
    await until(() => getDb().select().from(jobs).where(and(eq(jobs.kind, "w.every-bad"), eq(jobs.status, "failed"))).all().length === 1);
    await w.stop();
    const next = getDb().select().from(jobs).where(and(eq(jobs.kind, "w.every-bad"), eq(jobs.status, "queued"))).all();
    expect(next).toHaveLength(1);
    expect(next[0]!.run_after).toBeGreaterThan(Date.now() + 3500_000);
  });
});
