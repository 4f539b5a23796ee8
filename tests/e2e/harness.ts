// Browser tests: a real server process on a free loopback port with its own temp DATA_DIR, and
// Debian Chromium driven by playwright-core. Every page records console errors, uncaught errors and
// failed requests from its creation; screenshotCheck fails on any of them and on a blank picture.
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { mkdtempSync, rmSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import sharp from "sharp";

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

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors, from the page's creation on. */
  errors: string[];
  /** Requests that failed outright, and same-origin subresources answered with a status >= 400. */
  failedRequests: string[];
}

interface Problems {
  errors: string[];
  failedRequests: string[];
  /** Console lines that only report a top-level document's own 4xx/5xx status (see track). */
  documentStatusLines: string[];
}
const problemsOf = new WeakMap<Page, Problems>();

/**
 * Collects a page's problems from the moment it exists: console errors, uncaught errors, requests
 * that never got an answer and same-origin subresources (anything but the top-level document, so
 * scripts, styles, images, fonts and fetch/XHR calls) answered with 4xx/5xx. The top-level
 * document's own status is the test's to assert (a 404 page or a 400 error page is tested as one);
 * the console line Chromium logs for it ("Failed to load resource: … status of 404", located at the
 * document's URL) stays in `errors` as before but is noted, so screenshotCheck does not count it.
 */
function track(page: Page): Problems {
  const known = problemsOf.get(page);
  if (known) return known;
  const p: Problems = { errors: [], failedRequests: [], documentStatusLines: [] };
  problemsOf.set(page, p);
  const failedDocuments = new Set<string>();
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    p.errors.push(m.text());
    if (m.text().startsWith("Failed to load resource") && failedDocuments.has(m.location().url)) p.documentStatusLines.push(m.text());
  });
  page.on("pageerror", (e) => p.errors.push(String(e)));
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText ?? "failed";
    // ERR_ABORTED is the page itself cancelling (an AbortController, or navigating away mid-load).
    if (why.includes("ERR_ABORTED")) return;
    p.failedRequests.push(`${r.method()} ${r.url()} (${r.resourceType()}): ${why}`);
  });
  page.on("response", (r) => {
    if (r.status() < 400) return;
    const req = r.request();
    let topDocument = false;
    try {
      topDocument = req.isNavigationRequest() && req.frame() === page.mainFrame();
    } catch {} // a service worker's request has no frame
    if (topDocument) return void failedDocuments.add(r.url());
    let same = false;
    try {
      same = new URL(r.url()).origin === new URL(page.url()).origin;
    } catch {}
    if (same) p.failedRequests.push(`${req.method()} ${r.url()} (${req.resourceType()}): ${r.status()}`);
  });
  return p;
}

/**
 * A new context (own cookies) at the given width; console errors, page errors and failed requests
 * are collected from creation, for this page and any other page later opened in the same context.
 */
export async function openPage(browser: Browser, width = 1280, height = 900): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width, height }, locale: "zh-CN" });
  context.on("page", (pg) => void track(pg));
  const page = await context.newPage();
  const p = track(page);
  return { page, context, errors: p.errors, failedRequests: p.failedRequests };
}

export async function loginAsAdmin(page: Page, base: string) {
  await page.goto(`${base}/login`);
  await page.locator('input[name="username"]').fill(ADMIN.username);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.locator('main button[type="submit"]:not([disabled])').click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/** A new page (see openPage) signed in as the e2e administrator; kept in `opened` for the spec's final error check. */
export async function openAdminPage(browser: Browser, base: string, opened: TrackedPage[] | null, width = 1280, height = 900): Promise<TrackedPage> {
  const p = await openPage(browser, width, height);
  opened?.push(p);
  await loginAsAdmin(p.page, base);
  return p;
}

export interface ScreenshotOptions {
  /** Fewer distinct colours than this (in a 160 px wide copy) is a blank page; default 16. */
  minColours?: number;
  /** Problems expected on this page (console text or failed request line); each pattern is explained by the caller. */
  allow?: (string | RegExp)[];
}

/** The console errors minus, one for one, the lines that only report a top-level document's status. */
function withoutDocumentStatus(p: Problems): string[] {
  const left = [...p.errors];
  for (const line of p.documentStatusLines) {
    const i = left.indexOf(line);
    if (i !== -1) left.splice(i, 1);
  }
  return left;
}

/** A page with one colour over more than this share of the picture is blank (real pages: under 0.85). */
const MAX_DOMINANT_SHARE = 0.95;

/**
 * Screenshot check that a page really rendered, saved under tests/e2e/__screens__ for people to
 * look at. It fails the test when the picture is blank (too few distinct colours, or one colour
 * nearly everywhere), and when the page has had console errors, uncaught errors or failed requests
 * (see track) at any time since it was created; pass `allow` for problems the caller provoked on
 * purpose (a caller that empties its TrackedPage.errors after checking a provoked error also
 * clears it here: it is the same array). Pages must come from openPage (or be opened in a context
 * openPage made), so nothing before the check goes unseen.
 */
export async function screenshotCheck(page: Page, name: string, opts: ScreenshotOptions = {}): Promise<{ file: string; distinctColours: number; dominantShare: number }> {
  const problems = problemsOf.get(page);
  if (!problems) throw new Error(`screenshotCheck(${name}): the page was not opened through openPage(), so its errors were not collected`);
  mkdirSync(SCREEN_DIR, { recursive: true });
  const file = join(SCREEN_DIR, `${name}.png`);
  const png = await page.screenshot({ path: file, fullPage: false });
  // Count colours in a downscaled copy, outside the page (no canvas or data: image in the page under test).
  const { data, info } = await sharp(png).removeAlpha().resize({ width: 160 }).raw().toBuffer({ resolveWithObject: true });
  const counts = new Map<number, number>();
  for (let i = 0; i < data.length; i += 3) {
    const k = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const distinctColours = counts.size;
  const dominantShare = Math.max(...counts.values()) / (info.width * info.height);

  const allowed = (line: string) => (opts.allow ?? []).some((a) => (typeof a === "string" ? line.includes(a) : a.test(line)));
  const found = {
    blank: distinctColours < (opts.minColours ?? 16) || dominantShare > MAX_DOMINANT_SHARE
      ? [`${distinctColours} distinct colours, the commonest covers ${(dominantShare * 100).toFixed(1)}% (${file})`] : [],
    consoleErrors: withoutDocumentStatus(problems).filter((e) => !allowed(e)),
    failedRequests: problems.failedRequests.filter((e) => !allowed(e)),
  };
  if (found.blank.length || found.consoleErrors.length || found.failedRequests.length) {
    throw new Error(`screenshotCheck(${name}) at ${page.url()}: ${JSON.stringify(found, null, 2)}`);
  }
  return { file, distinctColours, dominantShare };
}

const AXE_PATH = join(root, "node_modules/axe-core/axe.min.js");
export interface AxeViolation { id: string; impact: string; help: string; helpUrl: string; nodes: { target: string[]; html: string; failureSummary?: string }[] }

/**
 * axe-core on the current page with the WCAG 2 A/AA rules (2.0, 2.1, 2.2); answers the serious and
 * critical violations (the caller asserts). The site's CSP (script-src 'self') refuses the inline
 * <script> that page.addScriptTag({ path }) would add (and logs a console error for it), so the
 * same file is evaluated through the debugging protocol instead, which CSP does not govern.
 */
export async function axe(page: Page, context?: string): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(readFileSync(AXE_PATH, "utf8"));
  const violations = await page.evaluate(async (ctx) => {
    type Result = { violations: AxeViolation[] };
    const a = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<Result> } }).axe;
    const r = await a.run(ctx ?? document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      resultTypes: ["violations"],
    });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })) }));
  }, context);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
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
