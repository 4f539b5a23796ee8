import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { getDb, getSqlite } from "#db/client.ts";
import { jobs } from "#db/schema/jobs.ts";
import { eq } from "drizzle-orm";
import { useTempDatabase } from "#tests/helpers/testDb.ts";
import { backoffMs, claim, complete, enqueue, enqueueOnce, fail, getJob, heartbeat, LEASE_MS, purgeFinishedJobs, recoverOrphans, WORKER_ID } from "./queue.ts";

let db: ReturnType<typeof useTempDatabase>;
beforeAll(() => {
  db = useTempDatabase();
});
afterAll(() => db.cleanup());
beforeEach(() => getSqlite().exec("DELETE FROM jobs"));

const K = ["t.a"];
const setOwner = (id: number, owner: string | null, leaseUntil: number | null = Date.now() + LEASE_MS) =>
  getSqlite().query("UPDATE jobs SET lease_owner = ?, lease_until = ? WHERE id = ?").run(owner, leaseUntil, id);

describe("claim", () => {
  test("takes the oldest ready job once and leases it to this worker", () => {
    const first = enqueue("t.a", { x: 1 });
    const second = enqueue("t.a", { x: 2 });
    const now = Date.now();
    const got = claim(K, now)!;
    expect(got.id).toBe(first.id);
    expect(got).toMatchObject({ status: "running", attempts: 1, lease_owner: WORKER_ID, lease_until: now + LEASE_MS });
    expect(JSON.parse(got.payload)).toEqual({ x: 1 });
    expect(claim(K, now)!.id).toBe(second.id);
    expect(claim(K, now)).toBeNull();
  });

  test("only the given kinds, only once run_after has passed", () => {
    const now = Date.now();
    enqueue("t.other");
    const later = enqueue("t.a", {}, { runAfter: now + 5000 });
    expect(claim(K, now)).toBeNull();
    expect(claim([], now)).toBeNull();
    expect(claim(K, now + 5000)!.id).toBe(later.id);
  });

  test("a running job is not taken while its lease holds, and is once it runs out", () => {
    const job = enqueue("t.a");
    const now = Date.now();
    claim(K, now);
    setOwner(job.id, "elsewhere:1:abc", now + LEASE_MS);
    expect(claim(K, now + LEASE_MS - 1)).toBeNull();
    const again = claim(K, now + LEASE_MS + 1)!;
    expect(again).toMatchObject({ id: job.id, attempts: 2, lease_owner: WORKER_ID });
  });

  test("a job out of attempts is failed instead of run, and the next one is taken", () => {
    const spent = enqueue("t.a", {}, { maxAttempts: 2 });
    getSqlite().query("UPDATE jobs SET attempts = 2 WHERE id = ?").run(spent.id);
    const next = enqueue("t.a");
    expect(claim(K)!.id).toBe(next.id);
    expect(getJob(spent.id)).toMatchObject({ status: "failed", attempts: 2, error: "重试次数已用完", lease_owner: null });
    expect(getJob(spent.id)!.finished_at).toBeNumber();
  });

  test("an expired lease on the last attempt ends as failed", () => {
    const job = enqueue("t.a", {}, { maxAttempts: 1 });
    const now = Date.now();
    claim(K, now);
    expect(claim(K, now + LEASE_MS + 1)).toBeNull();
    expect(getJob(job.id)).toMatchObject({ status: "failed", attempts: 1 });
  });
});

describe("heartbeat", () => {
  test("extends the lease and records progress while this worker holds the job", () => {
    const job = enqueue("t.a");
    claim(K, Date.now() - 20_000);
    const before = getJob(job.id)!.lease_until!;
    expect(heartbeat(job.id, 40)).toBe(true);
    const after = getJob(job.id)!;
    expect(after.lease_until!).toBeGreaterThan(before);
    expect(after.progress).toBe(40);
  });

  test("reports a lost lease", () => {
    const job = enqueue("t.a");
    claim(K);
    setOwner(job.id, "elsewhere:1:abc");
    expect(heartbeat(job.id)).toBe(false);
    expect(getJob(job.id)!.lease_owner).toBe("elsewhere:1:abc");
  });
});

describe("complete", () => {
  const effectsTable = () => getSqlite().exec("CREATE TABLE IF NOT EXISTS fx (job_id INTEGER NOT NULL)");
  const fxCount = (id: number) => (getSqlite().query("SELECT count(*) AS n FROM fx WHERE job_id = ?").get(id) as { n: number }).n;

  test("commits result and effects exactly once", () => {
    effectsTable();
    const job = enqueue("t.a");
    claim(K);
    const fx = () => void getSqlite().query("INSERT INTO fx VALUES (?)").run(job.id);
    expect(complete(job.id, { ok: 1 }, fx)).toBe(true);
    expect(complete(job.id, { ok: 2 }, fx)).toBe(false);
    expect(fxCount(job.id)).toBe(1);
    expect(getJob(job.id)).toMatchObject({ status: "done", progress: 100, result: '{"ok":1}', lease_owner: null, lease_until: null });
  });

  test("a worker that lost the lease cannot complete, and its effects do not run", () => {
    effectsTable();
    const job = enqueue("t.a");
    claim(K);
    setOwner(job.id, "elsewhere:1:abc");
    let ran = false;
    expect(complete(job.id, null, () => { ran = true; })).toBe(false);
    expect(ran).toBe(false);
    expect(getJob(job.id)!.status).toBe("running");
  });

  test("an effect that throws rolls the completion back", () => {
    effectsTable();
    const job = enqueue("t.a");
    claim(K);
    expect(() => complete(job.id, null, () => {
      getSqlite().query("INSERT INTO fx VALUES (?)").run(job.id);
      throw new Error("disk full");
    })).toThrow("disk full");
    expect(fxCount(job.id)).toBe(0);
    expect(getJob(job.id)).toMatchObject({ status: "running", lease_owner: WORKER_ID });
  });
});

describe("fail and backoff", () => {
  test("backoff doubles from 2 s and stops at a minute", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(backoffMs)).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  test("a failed attempt is queued again after the backoff with its error", () => {
    const job = enqueue("t.a");
    claim(K);
    const before = Date.now();
    expect(fail(job.id, "转换失败")).toBe(true);
    const j = getJob(job.id)!;
    expect(j).toMatchObject({ status: "queued", attempts: 1, error: "转换失败", lease_owner: null, finished_at: null });
    expect(j.run_after).toBeGreaterThanOrEqual(before + backoffMs(1));
    expect(j.run_after).toBeLessThanOrEqual(Date.now() + backoffMs(1));
    expect(claim(K)).toBeNull();
    expect(claim(K, j.run_after)!.attempts).toBe(2);
  });

  test("the last attempt's failure is final", () => {
    const job = enqueue("t.a", {}, { maxAttempts: 2 });
    let now = Date.now();
    claim(K, now);
    fail(job.id, "第一次");
    now = getJob(job.id)!.run_after;
    claim(K, now);
    fail(job.id, "第二次");
    expect(getJob(job.id)).toMatchObject({ status: "failed", attempts: 2, error: "第二次" });
    expect(getJob(job.id)!.finished_at).toBeNumber();
    expect(claim(K, now + 3600_000)).toBeNull();
  });

  test("a worker that lost the job cannot fail it", () => {
    const job = enqueue("t.a");
    claim(K);
    setOwner(job.id, "elsewhere:1:abc");
    expect(fail(job.id, "迟到的失败")).toBe(false);
    expect(getJob(job.id)).toMatchObject({ status: "running", error: "" });
  });

  test("errors are kept to 2000 characters", () => {
    const job = enqueue("t.a");
    claim(K);
    fail(job.id, "错".repeat(5000));
    expect(getJob(job.id)!.error.length).toBe(2000);
  });
});

describe("recoverOrphans", () => {
  test("re-queues jobs of dead processes at once, keeps live and foreign ones", () => {
    const dead = enqueue("t.a");
    const samePidOldRun = enqueue("t.a");
    const mine = enqueue("t.a");
    const foreign = enqueue("t.a");
    for (let i = 0; i < 4; i++) claim(K);
    // pid_max on Linux is at most 2^22, so this pid cannot exist.
    setOwner(dead.id, `${hostname()}:9999999:deadbeef`);
    setOwner(samePidOldRun.id, `${hostname()}:${process.pid}:00000000`);
    setOwner(foreign.id, "another-host:1:cafebabe");
    expect(recoverOrphans()).toBe(2);
    expect(getJob(dead.id)).toMatchObject({ status: "queued", attempts: 1, lease_owner: null, run_after: 0 });
    expect(getJob(samePidOldRun.id)!.status).toBe("queued");
    expect(getJob(mine.id)).toMatchObject({ status: "running", lease_owner: WORKER_ID });
    expect(getJob(foreign.id)).toMatchObject({ status: "running", lease_owner: "another-host:1:cafebabe" });
  });
});

describe("enqueueOnce", () => {
  test("adds a job only when none of that kind is waiting or running", () => {
    expect(enqueueOnce("t.a")).not.toBeNull();
    expect(enqueueOnce("t.a")).toBeNull();
    const j = claim(K)!;
    expect(enqueueOnce("t.a")).toBeNull();
    complete(j.id);
    expect(enqueueOnce("t.a")).not.toBeNull();
  });
});

describe("purgeFinishedJobs", () => {
  test("removes only finished jobs older than the retention", () => {
    const now = Date.now();
    const old = enqueue("purge.test");
    const recent = enqueue("purge.test");
    const queued = enqueue("purge.test");
    getDb().update(jobs).set({ status: "done", finished_at: now - 8 * 86400_000 }).where(eq(jobs.id, old.id)).run();
    getDb().update(jobs).set({ status: "failed", finished_at: now - 86400_000 }).where(eq(jobs.id, recent.id)).run();
    expect(purgeFinishedJobs(7 * 86400_000, now)).toBe(1);
    expect(getJob(old.id)).toBeNull();
    expect(getJob(recent.id)).not.toBeNull();
    expect(getJob(queued.id)).not.toBeNull();
  });
});
