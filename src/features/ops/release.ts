// Version, licence and update checks (GET /license, GET/POST /release, PUT /release/source).
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { env } from "#src/env.ts";
import { setting, updateConfig } from "#src/features/settings/service.ts";
import { badGateway, badRequest } from "#src/lib/errors.ts";
import pkg from "../../../package.json" with { type: "json" };
import { readState, writeState } from "./state.ts";

const ROOT = join(import.meta.dir, "../../..");
export const UPDATE_TIMEOUT_MS = 5_000;

export const productVersion = () => String(pkg.version);

/** When the browser assets were last built (dist/manifest.json), else when this process started. */
export function buildDate(): number {
  return statSync(join(env.DIST_DIR, "manifest.json"), { throwIfNoEntry: false })?.mtimeMs ?? Date.now() - process.uptime() * 1000;
}

export interface ChangelogEntry { version: string; date: string; sections: { title: string; items: string[] }[] }

/** CHANGELOG.md ("## [x.y.z] - date", "### section", "- item") as entries, newest first as written. */
export function parseChangelog(text: string): ChangelogEntry[] {
  const out: ChangelogEntry[] = [];
  for (const line of text.split("\n")) {
    const v = /^##\s+\[?([^\]\s]+)\]?(?:\s+-\s+(\S+))?/.exec(line);
    if (v) {
      out.push({ version: v[1]!, date: v[2] ?? "", sections: [] });
      continue;
    }
    const cur = out.at(-1);
    if (!cur) continue;
    const h = /^###\s+(.+)/.exec(line);
    if (h) cur.sections.push({ title: h[1]!.trim(), items: [] });
    else if (/^[-*]\s+/.test(line)) {
      if (!cur.sections.length) cur.sections.push({ title: "", items: [] });
      cur.sections.at(-1)!.items.push(line.replace(/^[-*]\s+/, "").trim());
    } else if (/^\s{2,}\S/.test(line) && cur.sections.at(-1)?.items.length) {
      // A wrapped item continues on an indented line.
      const items = cur.sections.at(-1)!.items;
      items[items.length - 1] += ` ${line.trim()}`;
    }
  }
  return out;
}

let changelogCache: { mtime: number; entries: ChangelogEntry[] } | null = null;
export function changelog(): ChangelogEntry[] {
  const file = join(ROOT, "CHANGELOG.md");
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) return [];
  if (changelogCache?.mtime !== st.mtimeMs) changelogCache = { mtime: st.mtimeMs, entries: parseChangelog(readFileSync(file, "utf8")) };
  return changelogCache.entries;
}

export function license() {
  const file = join(ROOT, "LICENSE");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const name = (pkg as { license?: string }).license ?? (/Apache License[\s\S]{0,40}Version 2\.0/.test(text) ? "Apache-2.0" : "");
  return { name, excerpt: text.trim().split("\n").slice(0, 12).join("\n"), product: "魔豆文库（wenku）", version: productVersion(), url: "https://www.apache.org/licenses/LICENSE-2.0" };
}

export interface UpdateCheck { at: number; current: string; latest: string; url: string; notes: string; has_update: boolean }

/** -1, 0, 1 comparing dotted numeric versions ("0.10.0" > "0.9.3"); a pre-release suffix sorts first. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => v.replace(/^v/i, "").split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : -1));
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

const sourceUrl = z.string().trim().max(512, "地址不能超过 512 个字符").refine((u) => {
  try {
    return ["http:", "https:"].includes(new URL(u).protocol);
  } catch {
    return false;
  }
}, "更新检查地址必须是 http:// 或 https:// 开头的网址");

export const releaseSource = () => String(setting("system", "release_source") ?? "");

export function setReleaseSource(url: unknown): string {
  const r = sourceUrl.safeParse(url);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? "更新检查地址无效");
  updateConfig([{ category: "system", name: "release_source", value: r.data }]);
  return r.data;
}

const answer = z.object({ version: z.string().min(1).max(64), url: z.string().max(1024).optional().default(""), notes: z.string().max(20000).optional().default("") });

/** Asks the update source for `{version, url, notes}` with a short time-out; errors in Chinese. */
export async function checkForUpdate(): Promise<UpdateCheck> {
  const src = releaseSource();
  if (!src) throw badRequest("尚未设置更新检查地址，请先填写");
  // The address can also be saved through the generic settings form; check it here as well.
  if (!sourceUrl.safeParse(src).success) throw badRequest("更新检查地址必须是 http:// 或 https:// 开头的网址");
  let res: Response;
  try {
    res = await fetch(src, { signal: AbortSignal.timeout(UPDATE_TIMEOUT_MS), headers: { accept: "application/json", "user-agent": `wenku/${productVersion()}` } });
  } catch (e) {
    const why = (e as Error).name === "TimeoutError" ? `${UPDATE_TIMEOUT_MS / 1000} 秒内无响应` : "网络不可达或地址无法解析";
    throw badGateway(`无法连接更新服务器（${new URL(src).host}，${why}），请检查服务器网络或更新检查地址`);
  }
  if (!res.ok) throw badGateway(`更新服务器返回错误（HTTP ${res.status}）`);
  let body: unknown;
  try {
    body = JSON.parse((await res.text()).slice(0, 100_000));
  } catch {
    throw badGateway("更新服务器的回复不是有效的 JSON");
  }
  const parsed = answer.safeParse(body);
  if (!parsed.success) throw badGateway("更新服务器的回复缺少版本号（应为 {version, url, notes}）");
  const current = productVersion();
  const check: UpdateCheck = { at: Date.now(), current, latest: parsed.data.version, url: parsed.data.url, notes: parsed.data.notes, has_update: compareVersions(parsed.data.version, current) > 0 };
  writeState("release_check", check);
  return check;
}

export const lastUpdateCheck = () => readState<UpdateCheck>("release_check");

export function releaseInfo() {
  return { version: productVersion(), build_date: buildDate(), source: releaseSource(), last_check: lastUpdateCheck(), changelog: changelog() };
}
