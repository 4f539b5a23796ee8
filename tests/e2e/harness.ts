// Browser tests: a real server process on a free loopback port with its own temp DATA_DIR, and
// Debian Chromium driven by playwright-core. Every page records console errors for the checks.
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ADMIN = { username: "admin", password: "admin-e2e-pass" };
const root = resolve(import.meta.dir, "../..");
export const SCREEN_DIR = join(root, "tests/e2e/__screens__");

export interface Server { url: string; dataDir: string; stop: () => Promise<void> }

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port;
  s.stop(true);
  // Bun types port as optional because a unix-socket server has none; this one listens on TCP.
  if (p === undefined) throw new Error("Bun.serve({ port: 0 }) reported no port");
  return p;
}

export interface StartOptions {
  /** Runs on the fresh DATA_DIR before the server starts, e.g. to seed DATA_DIR/wenku.db (layout data is cached in-process). */
  beforeStart?: (dataDir: string) => void | Promise<void>;
}

/**
 * A real server on a free loopback port with its own DATA_DIR and its own build of the browser
 * assets (DIST_DIR), so nothing else rebuilding dist/ can pull files from under a running spec.
 */
export async function startServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), "wk-e2e-"));
  const distDir = env.DIST_DIR ? null : mkdtempSync(join(tmpdir(), "wk-e2e-dist-"));
  if (distDir) {
    const built = Bun.spawnSync(["bun", "scripts/build.ts"], { cwd: root, env: { ...process.env, DIST_DIR: distDir }, stdout: "pipe", stderr: "pipe" });
    if (built.exitCode !== 0) throw new Error(`build failed: ${built.stderr.toString()}`);
    env = { ...env, DIST_DIR: distDir };
  }
  await opts.beforeStart?.(dataDir);
  const port = await freePort();
  const proc = Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "warn", NODE_ENV: "production", ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not start");
    await Bun.sleep(50);
  }
  return {
    url, dataDir,
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
      if (distDir) rmSync(distDir, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export interface TrackedPage { page: Page; context: BrowserContext; errors: string[] }

/** A new context (own cookies) at the given width; console errors and page errors are collected. */
export async function openPage(browser: Browser, width = 1280, height = 900): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  return { page, context, errors };
}

export async function loginAsAdmin(page: Page, base: string) {
  await page.goto(`${base}/login`);
  await page.locator('input[name="username"]').fill(ADMIN.username);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.locator('main button[type="submit"]:not([disabled])').click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/**
 * Screenshot check that a page really rendered: saved under tests/e2e/__screens__ for people to
 * look at, and asserted to be neither blank nor one flat colour.
 */
export async function screenshotCheck(page: Page, name: string): Promise<{ file: string; distinctColours: number }> {
  mkdirSync(SCREEN_DIR, { recursive: true });
  const file = join(SCREEN_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  // Count distinct colours in a downscaled copy: a blank page has 1, a real one hundreds.
  const distinctColours = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = 160;
    c.height = Math.round((img.height / img.width) * 160);
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0, c.width, c.height);
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const set = new Set<number>();
    for (let i = 0; i < data.length; i += 4) set.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return set.size;
  }, `data:image/png;base64,${(await Bun.file(file).bytes()).toBase64()}`);
  return { file, distinctColours };
}

/** Resolves once the named island has hydrated (islands/client.ts marks it data-hydrated="1"). */
export const hydrated = (page: Page, island: string) =>
  page.waitForSelector(`[data-island="${island}"][data-hydrated="1"]`, { state: "attached" });

/** A JSON call to the server's API that must answer 200 (test set-up, not under test itself). */
export async function serverApi(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json as any;
}
