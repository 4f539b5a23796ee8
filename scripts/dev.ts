// `bun run dev`: the island/CSS builder in watch mode plus the server under `bun --watch`.
// The server reads dist/manifest.json once at start, so a rebuild restarts it to pick up the new
// hashed asset names; source changes restart it through --watch.
import type { Subprocess } from "bun";
import { existsSync, statSync, watch } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const dist = resolve(process.env.DIST_DIR ?? join(root, "dist"));
const manifest = join(dist, "manifest.json");
const mtime = () => (existsSync(manifest) ? statSync(manifest).mtimeMs : 0);

let stopping = false;
const startedAt = Date.now();

const builder = Bun.spawn(["bun", "scripts/build.ts", "--watch"], { cwd: root, stdout: "inherit", stderr: "inherit", stdin: "ignore" });
while (mtime() < startedAt) {
  if (builder.exitCode !== null) process.exit(builder.exitCode || 1);
  await Bun.sleep(50);
}

let server: Subprocess;
let restarting = false;
const startServer = () => {
  server = Bun.spawn(["bun", "--watch", "src/server.ts"], {
    cwd: root, stdout: "inherit", stderr: "inherit", stdin: "inherit",
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "development" },
  });
  const mine = server;
  void mine.exited.then((code) => {
    if (stopping || restarting || mine !== server) return;
    console.error(`服务器进程退出（${code}），开发模式结束`);
    shutdown(code ?? 1);
  });
};
startServer();

let seen = mtime();
let timer: Timer | undefined;
watch(dist, (_event, file) => {
  if (file !== "manifest.json") return;
  clearTimeout(timer);
  timer = setTimeout(async () => {
    if (mtime() === seen || stopping) return;
    seen = mtime();
    restarting = true;
    server.kill("SIGTERM");
    await server.exited;
    restarting = false;
    console.log("前端资源已重新构建，服务器已重启");
    startServer();
  }, 150);
});

void builder.exited.then((code) => {
  if (!stopping) {
    console.error(`构建进程退出（${code}），开发模式结束`);
    shutdown(code ?? 1);
  }
});

function shutdown(code: number) {
  stopping = true;
  builder.kill("SIGTERM");
  server.kill("SIGTERM");
  void Promise.all([builder.exited, server.exited]).then(() => process.exit(code));
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));
