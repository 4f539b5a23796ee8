import { createApp } from "./app.ts";
import { bootDatabase } from "./boot.ts";
import { env } from "./env.ts";
import { ensureRootAdmin } from "./features/auth/users.ts";
import { log } from "./http/requestLog.ts";
import { startWorker } from "./jobs/worker.ts";
import { getManifest } from "./views/assets.tsx";
import { handle } from "#db/client.ts";
import "./jobs/registry.ts";
import { failInterruptedAnswers } from "./features/ai/generate.ts";
import { claimServerLock } from "./features/ops/serverLock.ts";

const started = performance.now();
bootDatabase();
handle();
// Tells `bun scripts/admin.ts restore` that this DATA_DIR is in use.
claimServerLock(env.DATA_DIR);
getManifest();
// Answers that were being written when the last process died cannot be resumed.
failInterruptedAnswers();

const admin = await ensureRootAdmin(env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
if (admin) {
  // Printed once: the password is not stored anywhere in clear.
  console.log(`\n  已创建超级管理员：用户名 ${admin.username}${admin.generated ? `  密码 ${admin.password}（随机生成，只显示这一次）` : "（密码取自 ADMIN_PASSWORD）"}\n`);
}

const app = createApp();
const server = Bun.serve({ port: env.PORT, hostname: env.HOST, fetch: app.fetch, maxRequestBodySize: 512 * 1024 * 1024 });
const worker = startWorker({ concurrency: 2 });
log("info", "listening", { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${server.port}`, ms: Math.round(performance.now() - started) });

async function shutdown(sig: string) {
  log("info", "shutting down", { signal: sig });
  server.stop();
  await worker.stop();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
