// Retention of search records: a daily run drops rows older than the configured number of days.
import { registerJob } from "#src/jobs/worker.ts";
import { flushSearchRecords, purgeSearchRecords } from "./records.ts";

registerJob("search.records.purge", async () => {
  flushSearchRecords();
  return { result: { deleted: purgeSearchRecords() } };
}, { everyMs: 24 * 3600_000 });
