import { join } from "node:path";
import { configureDatabase, openDatabase } from "#db/client.ts";
import { env } from "./env.ts";

/** Points the process at DATA_DIR/wenku.db and runs migrations; used by the server and scripts. */
export function bootDatabase() {
  configureDatabase(() => openDatabase(join(env.DATA_DIR, "wenku.db")));
}
