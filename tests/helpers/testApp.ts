import { afterAll, beforeAll } from "bun:test";
import { getDb } from "#db/client.ts";
import { user } from "#db/schema/users.ts";
import { createApp } from "#src/app.ts";
import { hashPassword } from "#src/features/auth/passwords.ts";
import { createSession } from "#src/features/auth/sessions.ts";
import { useTempDatabase } from "./testDb.ts";

export type TestApp = ReturnType<typeof makeHelpers>;

export const ROOT = { username: "root", password: "root-pass-123" };

function makeHelpers() {
  const app = createApp();
  /** app.request with JSON body and an optional bearer token; answers { status, body, res }. */
  async function req(method: string, path: string, opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.body !== undefined) {
      if (typeof opts.body === "string" || opts.body instanceof FormData) body = opts.body as BodyInit;
      else {
        body = JSON.stringify(opts.body);
        headers["content-type"] ??= "application/json";
      }
    }
    const res = await app.request(path, { method, headers, body });
    // app.request does not decode like a browser would; compressed bodies are unpacked here.
    const raw = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(res.headers.get("content-encoding") === "gzip" ? Bun.gunzipSync(raw) : raw);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, body: json, text, res };
  }
  /** Inserts a user directly and returns a session token for it. */
  async function createUser(username: string, opts: { root?: boolean; password?: string } = {}) {
    const u = getDb().insert(user).values({ username, password: await hashPassword(opts.password ?? "password-123"), is_root: !!opts.root }).returning().get();
    return { user: u, token: createSession(u.id).token };
  }
  return { app, req, createUser };
}

/**
 * For a route-test file: a fresh temp database + app before all tests, with a root administrator
 * (`t.rootToken`) and an ordinary user (`t.userToken`).
 */
export function setupTestApp() {
  const t = {} as TestApp & { rootToken: string; userToken: string; rootId: number; userId: number; cleanup: () => void };
  beforeAll(async () => {
    const db = useTempDatabase();
    Object.assign(t, makeHelpers(), { cleanup: db.cleanup });
    const root = await t.createUser(ROOT.username, { root: true, password: ROOT.password });
    const plain = await t.createUser("member", {});
    Object.assign(t, { rootToken: root.token, userToken: plain.token, rootId: root.user.id, userId: plain.user.id });
  });
  afterAll(() => t.cleanup?.());
  return t;
}
