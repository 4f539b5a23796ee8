// A real, separate worker process for the job-queue tests: the production queue and worker code on
// DATA_DIR's database. Its one job kind records when it starts (MARK_DIR/<name>.started), hangs
// while MARK_DIR/hang-<name> exists until MARK_DIR/release-<name> appears, and completes with an
// effect row inserted in the completion transaction.
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { getSqlite } from "#db/client.ts";
import { bootDatabase } from "#src/boot.ts";
import { WORKER_ID } from "#src/jobs/queue.ts";
import { registerJob, startWorker } from "#src/jobs/worker.ts";

const name = process.env.WORKER_NAME ?? "worker";
const marks = process.env.MARK_DIR;
if (!marks) throw new Error("MARK_DIR is required");

bootDatabase();

registerJob("test.effect", async ({ job }) => {
  appendFileSync(join(marks, `${name}.started`), `${job.id}:${job.attempts}\n`);
  if (existsSync(join(marks, `hang-${name}`))) {
    while (!existsSync(join(marks, `release-${name}`))) await Bun.sleep(20);
  }
  return {
    result: { by: name },
    effects: () => void getSqlite().query("INSERT INTO job_effects (job_id, worker) VALUES (?, ?)").run(job.id, name),
  };
});

const worker = startWorker({ concurrency: 1, pollMs: 50 });
process.stdout.write(`ready ${WORKER_ID}\n`);
process.on("SIGTERM", () => {
  void worker.stop().then(() => process.exit(0));
});
