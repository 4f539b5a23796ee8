// Runs task.ts in a child process and returns its answer; see task.ts for why a child.
import { join } from "node:path";

const TASK = join(import.meta.dir, "task.ts");

export async function runTask<T>(command: "maintain" | "backup", args: unknown, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<T> {
  const cmd = [process.execPath, TASK, command, JSON.stringify(args)];
  // Lower priority than the server: a long VACUUM or gzip must not slow page rendering.
  const nice = Bun.which("nice");
  const p = Bun.spawn(nice ? [nice, "-n", "10", ...cmd] : cmd, {
    stdout: "pipe", stderr: "pipe", stdin: "ignore", timeout: opts.timeoutMs, killSignal: "SIGKILL",
  });
  const onAbort = () => p.kill("SIGKILL");
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    if (p.signalCode) throw new Error(opts.signal?.aborted ? "操作已取消" : `操作超时（${Math.round(opts.timeoutMs / 1000)} 秒）`);
    const line = out.trim().split("\n").at(-1) ?? "";
    let answer: { ok: boolean; result?: T; error?: string };
    try {
      answer = JSON.parse(line);
    } catch {
      throw new Error(`子进程异常退出：${(err || out).trim().slice(0, 300) || `退出码 ${p.exitCode}`}`);
    }
    if (!answer.ok) throw new Error(answer.error ?? "未知错误");
    return answer.result as T;
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
}
