import { expect } from "bun:test";
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import type { TestApp } from "../helpers/testApp.ts";
import type { SmtpSink } from "../helpers/smtpSink.ts";

type App = TestApp & { rootToken: string };

/** Points the `email` settings at the sink through the admin API, as an admin would. */
export async function configureEmail(t: App, sink: SmtpSink, over: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = {
    enable: true, host: "127.0.0.1", port: sink.port, is_tls: false, from_name: "魔豆文库", username: sink.user, password: sink.pass, duration: 10, ...over,
  };
  const config = Object.entries(values).map(([name, value]) => ({ category: "email", name, value }));
  const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config } });
  expect(r.status).toBe(200);
}

/** A user with an e-mail address and a known password; answers its id and a session token. */
export async function userWithEmail(t: App, username: string, email: string, password = "old-password-1") {
  const { user: u, token } = await t.createUser(username, { password });
  getDb().update(user).set({ email }).where(eq(user.id, u.id)).run();
  return { id: u.id, token, password };
}

export const codeIn = (text: string) => /(\d{6})/.exec(text)?.[1] ?? "";

/** SQL, script and header-injection attempts at the e-mail field; none is a valid address. */
export const BAD_EMAILS = [
  "' OR 1=1 --",
  "a@b.com' OR '1'='1",
  "<script>alert(1)</script>@x.com",
  "\"><img src=x onerror=alert(1)>",
  "victim@x.com\r\nBcc: evil@x.com",
  "x@y.com; DROP TABLE user;--",
  "not-an-email",
];
