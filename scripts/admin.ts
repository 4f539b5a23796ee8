// Administrator command line for the server's machine:
//   bun scripts/admin.ts password <用户名> [新密码]   sets a user's password (a random one when left
//     out), ends that user's sessions and prints it;
//   bun scripts/admin.ts restore <备份文件>           restores a backup (DATA_DIR/backups/…tar.gz)
//     into DATA_DIR while the server is stopped.
import { eq } from "drizzle-orm";
import { resolve } from "node:path";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { env } from "#src/env.ts";
import { bootDatabase } from "#src/boot.ts";
import { hashPassword, randomPassword } from "#src/features/auth/passwords.ts";
import { revokeUserSessions } from "#src/features/auth/sessions.ts";
import { findUserByLogin } from "#src/features/auth/users.ts";
import { restoreArchive } from "#src/features/ops/archive.ts";
import { runningServer } from "#src/features/ops/serverLock.ts";

const USAGE = "用法：\n  bun scripts/admin.ts password <用户名> [新密码]\n  bun scripts/admin.ts restore <备份文件>";

async function password(username: string | undefined, given: string | undefined) {
  if (!username) return usage();
  if (given !== undefined && given.length < 6) {
    console.error("新密码至少 6 位");
    process.exit(2);
  }
  bootDatabase();
  const u = findUserByLogin(username);
  if (!u) {
    console.error(`用户不存在：${username}`);
    process.exit(1);
  }
  const pw = given ?? randomPassword();
  getDb().update(user).set({ password: await hashPassword(pw), updated_at: Date.now() }).where(eq(user.id, u.id)).run();
  revokeUserSessions(u.id);
  console.log(`已重置 ${u.username} 的密码：${pw}（该用户的登录会话已全部退出）`);
}

async function restore(file: string | undefined) {
  if (!file) return usage();
  // Swapping the database under a live server would lose its writes and corrupt its WAL view.
  const pid = runningServer(env.DATA_DIR);
  if (pid) {
    console.error(`网站服务正在运行（进程 ${pid}，数据目录 ${env.DATA_DIR}）。请先停止服务，再执行恢复。`);
    process.exit(1);
  }
  const path = resolve(file);
  console.log(`正在校验并恢复 ${path} → ${env.DATA_DIR} …`);
  try {
    const { manifest, previous } = await restoreArchive(path, env.DATA_DIR);
    console.log(`恢复完成：备份时间 ${new Date(manifest.created_at).toISOString()}，版本 ${manifest.version}，数据库 ${manifest.db.size} 字节，文件 ${manifest.files.count} 个。`);
    console.log(`原有数据已移到 ${previous}，确认网站正常后可删除。`);
  } catch (e) {
    console.error(`恢复失败：${(e as Error).message}`);
    process.exit(1);
  }
}

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

const [command, a, b] = process.argv.slice(2);
if (command === "password") await password(a, b);
else if (command === "restore") await restore(a);
else usage();
