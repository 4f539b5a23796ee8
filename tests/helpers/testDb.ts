import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, configureDatabase, openDatabase } from "#db/client.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { clearPageCache } from "#src/http/pageCache.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { resetAll } from "#src/lib/rateLimit.ts";

/** A fresh, migrated SQLite database on disk in its own temp folder; every cache reset. */
export function useTempDatabase(): { dir: string; file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "wk-test-"));
  const file = join(dir, "wenku.db");
  configureDatabase(() => openDatabase(file));
  invalidateSettings();
  clearPageCache();
  bumpContentVersion();
  resetAll();
  return {
    dir, file,
    cleanup() {
      closeDatabase();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
