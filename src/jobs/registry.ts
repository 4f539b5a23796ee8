// Every job kind the server runs is registered here by importing the module that registers it.
// Features add their job modules (conversion, sitemap, …) as they land.
import { registerJob } from "./worker.ts";
import { purgeFinishedJobs } from "./queue.ts";
import { purgeExpiredSessions } from "#src/features/auth/sessions.ts";
import "#src/features/users/punishments/jobs.ts";
import "#src/features/convert/job.ts";
import "#src/features/convert/renderFull.ts";
import "#src/features/ocr/job.ts";
import "#src/features/documents/orphans.ts";
import "#src/features/site/sitemap.ts";
import "#src/features/search/indexer.ts";
import "#src/features/search/recordsJob.ts";
import "#src/features/orders/jobs.ts";
import "#src/features/spider/jobs.ts";
import "#src/features/ops/jobs.ts";
import "#src/features/embedding/jobs.ts";

// House-keeping every six hours: expired sessions, and finished jobs older than a week.
registerJob("sessions.purge", async () => {
  purgeExpiredSessions();
  purgeFinishedJobs();
}, { everyMs: 6 * 3600_000 });
