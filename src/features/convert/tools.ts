import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "#src/features/admin/dashboard/envs.ts";

/** A conversion failure whose message is shown to admins and uploaders as is (Chinese). */
export class ConvertError extends Error {
  override name = "ConvertError";
}

// Debian package named for a missing tool: the dashboard's tool list, plus pdfinfo from poppler.
const PACKAGES: Record<string, string> = {
  ...Object.fromEntries(TOOLS.map((t) => [t.name, t.package])),
  pdfinfo: "poppler-utils",
};

export const missingTool = (tool: string, pkg = PACKAGES[tool] ?? tool) =>
  new ConvertError(`缺少转换工具 ${tool}，请安装 Debian 软件包 ${pkg}`);

/** "30 分钟", or seconds for limits under a minute (tests use a few seconds). */
export const describeTimeout = (ms: number) => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} 分钟` : `${Math.max(1, Math.round(ms / 1000))} 秒`);

/** How many times each tool was started in this process (tests check that reuse skips tools). */
export const toolRuns: Record<string, number> = {};

// Marks every child with its work dir, so a later attempt can find and kill the orphans a
// kill -9'd worker left behind (detached children outlive their parent).
const MARK = "WENKU_CONVERT_DIR";
const PIDS = ".pids";

export interface RunOptions {
  signal: AbortSignal;
  /** the job's work dir: children are recorded there and marked with it */
  workDir: string;
  cwd?: string;
  env?: Record<string, string>;
  /** Debian package named when the tool is missing (defaults to the tool's own package) */
  pkg?: string;
  /** keep at most this many bytes of stdout (the rest is drained and dropped) */
  maxStdout?: number;
}

export interface RunResult { code: number; stdout: string; stderr: string }

const killGroup = (pid: number) => {
  try {
    process.kill(-pid, "SIGKILL");
  } catch { /* already gone */ }
};

async function readCapped(stream: ReadableStream<Uint8Array>, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size >= max) continue;
    chunks.push(size + chunk.length > max ? chunk.subarray(0, max - size) : chunk);
    size += chunk.length;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

// Conversions get little of the CPU while the web server wants it (design.md §8: `/` p99 while
// converting ≤ 2× idle). Tools run at `nice -n 19` and, because `detached` starts each tool in a
// session of its own, in an autogroup of its own: with autogroup scheduling on (Linux's default,
// kernel.sched_autogroup_enabled=1) every session gets an equal share of the CPU whatever its
// processes' nice level, so a nice-10 mutool took as much CPU as the whole web server. Its autogroup
// is set to nice 19 right after the spawn (unprivileged: lowering one's own priority is always
// allowed; helpers it forks share it), a weight of 15 against the server's 1024. Not SCHED_IDLE
// (`chrt -i 0`): that measured the same here, but starves a conversion outright under sustained
// load, where nice 19 still lets it finish. `nice` execs the tool, so the pid stays the tool's.
const NICE = Bun.which("nice");
export const TOOL_PRIORITY: string[] = NICE ? [NICE, "-n", "19"] : [];
const AUTOGROUP_NICE = "19";

/** Puts a detached child's session (autogroup) at the lowest CPU weight; a no-op without autogroups. */
export function lowerAutogroup(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, AUTOGROUP_NICE);
  } catch { /* no CONFIG_SCHED_AUTOGROUP, or the tool has already exited */ }
}

/**
 * Runs an external tool in its own process group, off the event loop. The job's signal (timeout,
 * lost lease, shutdown) kills the whole group, so soffice's helper processes die with it.
 */
export async function run(tool: string, args: string[], opts: RunOptions): Promise<RunResult> {
  opts.signal.throwIfAborted();
  const bin = Bun.which(tool, { PATH: process.env.PATH ?? "" });
  if (!bin) throw missingTool(tool, opts.pkg);
  toolRuns[tool] = (toolRuns[tool] ?? 0) + 1;
  const proc = Bun.spawn([...TOOL_PRIORITY, bin, ...args], {
    cwd: opts.cwd ?? opts.workDir,
    env: { ...process.env, ...opts.env, [MARK]: opts.workDir },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  lowerAutogroup(proc.pid);
  appendFileSync(join(opts.workDir, PIDS), `${proc.pid}\n`);
  const onAbort = () => killGroup(proc.pid);
  opts.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const [stdout, stderr, code] = await Promise.all([
      readCapped(proc.stdout, opts.maxStdout ?? 64 << 20),
      readCapped(proc.stderr, 64 << 10),
      proc.exited,
    ]);
    opts.signal.throwIfAborted();
    return { code, stdout, stderr };
  } finally {
    opts.signal.removeEventListener("abort", onAbort);
    // A tool that exited may have left helpers behind (soffice.bin, QtWebEngine).
    killGroup(proc.pid);
  }
}

/**
 * Kills what an earlier attempt started from `workDir` and is still running. Only processes that
 * carry the work-dir mark are touched, so a recycled pid is never hit.
 */
export function killLeftovers(workDir: string) {
  let pids: number[];
  try {
    pids = readFileSync(join(workDir, PIDS), "utf8").split("\n").filter(Boolean).map(Number);
  } catch {
    return;
  }
  const needle = `${MARK}=${workDir}\0`;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").includes(needle)) killGroup(pid);
    } catch { /* gone, or not ours to read */ }
  }
}
