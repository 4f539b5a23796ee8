// DATA_DIR/server.pid: written by a running server, so offline tools (restore) can refuse to swap
// the database and files out from under it. A stale file (crash, kill -9) is recognised because
// its process no longer exists.
import { hostname } from "node:os";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const lockPath = (dataDir: string) => join(dataDir, "server.pid");

export function claimServerLock(dataDir: string) {
  const file = lockPath(dataDir);
  writeFileSync(file, `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`);
  process.on("exit", () => {
    // Only our own file: another server may have started on the same folder since.
    try {
      if (readFileSync(file, "utf8").startsWith(`${process.pid}\n`)) rmSync(file, { force: true });
    } catch {}
  });
}

/** The pid of a server running on `dataDir` on this host, or null when none is. */
export function runningServer(dataDir: string): number | null {
  const file = lockPath(dataDir);
  if (!existsSync(file)) return null;
  const [pidLine, host] = readFileSync(file, "utf8").split("\n");
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  // Another host sharing the folder cannot be probed; assume it runs (the file goes when it stops).
  if (host && host !== hostname()) return pid;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    // EPERM: the process exists but belongs to another user; it is still running.
    return (e as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}
