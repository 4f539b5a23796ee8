import { cpus, freemem, hostname, loadavg, platform, arch, release, totalmem, uptime as osUptime } from "node:os";
import { statfsSync } from "node:fs";
import { getSqlite } from "#db/client.ts";
import { env } from "#src/env.ts";

// Tables counted on the dashboard.
const COUNTED = {
  user_count: "user", document_count: "document", article_count: "article", category_count: "category", attachment_count: "attachment",
  navigation_count: "navigation", friendlink_count: "friendlink", banner_count: "banner", advertisement_count: "advertisement",
} as const;
export type Stats = Record<keyof typeof COUNTED, number>;

/** Row count of a known table; the name comes from the list above, never from a request. */
function countRows(table: string): number {
  return (getSqlite().query(`select count(*) as n from "${table}"`).get() as { n: number }).n;
}

export function stats(): Stats {
  return Object.fromEntries(Object.entries(COUNTED).map(([k, t]) => [k, countRows(t)])) as Stats;
}

const DAY = 86_400_000;
const SHANGHAI = 8 * 3_600_000; // UTC+8 all year, no daylight saving

export interface ActivityDay { day: string; users: number; attachments: number; jobs: number }

/** Per-day counts for the last `days` days (Asia/Shanghai days, today included). */
export function activity(days = 14, now = Date.now()): ActivityDay[] {
  const today = Math.floor((now + SHANGHAI) / DAY);
  const first = today - days + 1;
  const since = first * DAY - SHANGHAI;
  const series = (sql: string) => {
    const m = new Map<number, number>();
    for (const r of getSqlite().query(sql).all(SHANGHAI, DAY, since) as { d: number; n: number }[]) m.set(r.d, r.n);
    return m;
  };
  const users = series(`select (created_at + ?1) / ?2 as d, count(*) as n from "user" where created_at >= ?3 group by d`);
  const files = series("select (created_at + ?1) / ?2 as d, count(*) as n from attachment where created_at >= ?3 group by d");
  const jobs = series("select (finished_at + ?1) / ?2 as d, count(*) as n from jobs where status = 'done' and finished_at >= ?3 group by d");
  return Array.from({ length: days }, (_, i) => {
    const d = first + i;
    const date = new Date(d * DAY);
    return { day: `${String(date.getUTCMonth() + 1).padStart(2, "0")}-${String(date.getUTCDate()).padStart(2, "0")}`, users: users.get(d) ?? 0, attachments: files.get(d) ?? 0, jobs: jobs.get(d) ?? 0 };
  });
}

export interface DeviceInfo {
  hostname: string; os: string; cpu_model: string; cpu_cores: number; load: number[];
  memory_total: number; memory_used: number; disk_total: number; disk_used: number; disk_path: string;
  bun_version: string; uptime: number; os_uptime: number;
}

export function device(): DeviceInfo {
  const c = cpus();
  let disk_total = 0;
  let disk_used = 0;
  try {
    const s = statfsSync(env.DATA_DIR);
    disk_total = s.blocks * s.bsize;
    disk_used = (s.blocks - s.bfree) * s.bsize;
  } catch {
    // DATA_DIR not created yet: the disk figures stay 0 rather than failing the page.
  }
  const total = totalmem();
  return {
    hostname: hostname(), os: `${platform()} ${release()} ${arch()}`, cpu_model: c[0]?.model.trim() ?? "", cpu_cores: c.length,
    load: loadavg().map((l) => Math.round(l * 100) / 100), memory_total: total, memory_used: total - freemem(),
    disk_total, disk_used, disk_path: env.DATA_DIR, bun_version: Bun.version, uptime: Math.round(process.uptime()), os_uptime: Math.round(osUptime()),
  };
}
