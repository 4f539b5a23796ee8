import { registerJob } from "#src/jobs/worker.ts";
import { syncDisabledAccounts } from "./service.ts";

// Disable punishments end (or begin) on their own; login also lifts an expired one at once.
registerJob("punishments.sync", async () => ({ result: syncDisabledAccounts() }), { everyMs: 10 * 60_000 });
