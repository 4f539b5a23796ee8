// Administrator command line for the server's machine: `bun scripts/admin.ts password <用户名> [新密码]`
// sets a user's password (a random one when left out), ends that user's sessions and prints it.
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { bootDatabase } from "#src/boot.ts";
import { hashPassword, randomPassword } from "#src/features/auth/passwords.ts";
import { revokeUserSessions } from "#src/features/auth/sessions.ts";
import { findUserByLogin } from "#src/features/auth/users.ts";

const USAGE = "用法：bun scripts/admin.ts password <用户名> [新密码]";

const [command, username, given] = process.argv.slice(2);
if (command !== "password" || !username) {
  console.error(USAGE);
  process.exit(2);
}
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
const password = given ?? randomPassword();
getDb().update(user).set({ password: await hashPassword(password), updated_at: Date.now() }).where(eq(user.id, u.id)).run();
revokeUserSessions(u.id);
console.log(`已重置 ${u.username} 的密码：${password}（该用户的登录会话已全部退出）`);
