// Every job kind the server runs is registered here by importing the module that registers it.
// Features add their job modules (conversion, sitemap, …) as they land.
import { registerJob } from "./worker.ts";
import { purgeExpiredSessions } from "#src/features/auth/sessions.ts";

registerJob("sessions.purge", async () => {
  purgeExpiredSessions();
}, { everyMs: 6 * 3600_000 });
