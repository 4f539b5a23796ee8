import { expect } from "bun:test";
import type { TestApp } from "../helpers/testApp.ts";

type App = TestApp & { rootToken: string };

/** Sets config values through the admin API, as an admin would. */
export async function setConfig(t: App, category: string, values: Record<string, unknown>) {
  const config = Object.entries(values).map(([name, value]) => ({ category, name, value }));
  const r = await t.req("PUT", "/api/v1/config", { token: t.rootToken, body: { config } });
  expect(r.status).toBe(200);
}

let ipSeq = 0;
/** A fresh client address per call, so per-IP limits of one test never reach the next. */
export const freshIp = () => {
  const n = ipSeq++;
  return `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`;
};

export const register = (t: App, body: Record<string, unknown>, ip = freshIp()) =>
  t.req("POST", "/api/v1/user/register", { body, headers: { "x-forwarded-for": ip } });

/** SQL and script injection attempts for free-text fields. */
export const INJECTIONS = [
  "Robert'); DROP TABLE user;--",
  "' OR '1'='1",
  "<script>alert('xss')</script>",
  "\"><img src=x onerror=alert(1)>",
  "{{7*7}} ${7*7} </textarea><svg onload=alert(1)>",
];
