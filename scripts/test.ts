// `bun run test`: first the type check (`tsc --noEmit -p .`, the project's own TypeScript) and the
// linter (`biome lint`, rules in biome.json), each counted as 1 passed or, printing its errors, 1
// failed, then unit and route tests in one `bun test` run,
// then each browser spec (tests/e2e/*.e2e.ts) in its own run. bun prints its " N pass" / " N fail"
// summary to stderr and CI reads none of it, so the totals are printed here as the very last line:
// `N passed, N failed`. `bun run test:e2e` runs only the browser specs (no type check).
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const RUN_TIMEOUT_MS = 20 * 60_000;
const e2eOnly = process.argv.includes("--e2e");

interface Outcome { label: string; passed: number; failed: number; code: number | null; crashed: boolean }

// One writer for both child streams, so the closing line cannot overtake buffered test output.
let written = Promise.resolve();
const forward = (chunk: Uint8Array) => (written = written.then(() => Bun.write(Bun.stdout, chunk)).then(() => {}));

async function pump(stream: ReadableStream<Uint8Array>, sink: string[]) {
  const dec = new TextDecoder();
  for await (const chunk of stream) {
    sink.push(dec.decode(chunk, { stream: true }));
    forward(chunk);
  }
}

// bun's summary lines, e.g. " 12 pass" and " 0 fail", possibly coloured.
const count = (text: string, word: string) =>
  [...text.replace(/\x1b\[[0-9;]*m/g, "").matchAll(new RegExp(`^\\s*(\\d+) ${word}\\s*$`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);

async function run(label: string, args: string[]): Promise<Outcome> {
  forward(new TextEncoder().encode(`\n=== ${label}: bun ${args.join(" ")}\n`));
  const proc = Bun.spawn(["bun", ...args], { cwd: root, stdout: "pipe", stderr: "pipe", stdin: "ignore", env: { ...process.env, FORCE_COLOR: "0" } });
  const timer = setTimeout(() => proc.kill("SIGKILL"), RUN_TIMEOUT_MS);
  // Kept apart so a summary line is never split by a chunk of the other stream.
  const out: string[] = [];
  const err: string[] = [];
  await Promise.all([pump(proc.stdout, out), pump(proc.stderr, err), proc.exited]);
  clearTimeout(timer);
  const text = `${out.join("")}\n${err.join("")}`;
  const passed = count(text, "pass");
  // bun already counts an unhandled error between tests as a failure (" 1 fail" beside " 1 error").
  let failed = count(text, "fail");
  const code = proc.exitCode;
  // A run that died (load error, crash, timeout) without reporting a failure still counts as one.
  const crashed = code !== 0 && failed === 0;
  if (crashed) failed = 1;
  return { label, passed, failed, code, crashed };
}

// The type check and the linter are one pass or one fail each; their output is never read for bun's summary lines.
async function check(label: string, bin: string, args: string[]): Promise<Outcome> {
  forward(new TextEncoder().encode(`\n=== ${label}: ${bin} ${args.join(" ")}\n`));
  const path = join(root, "node_modules/.bin", bin);
  if (!existsSync(path)) {
    forward(new TextEncoder().encode(`${path} not found: run bun install\n`));
    return { label, passed: 0, failed: 1, code: null, crashed: true };
  }
  // Both launchers are node scripts: bun runs them, so no Node is needed.
  const proc = Bun.spawn(["bun", path, ...args], { cwd: root, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), RUN_TIMEOUT_MS);
  await Promise.all([pump(proc.stdout, []), pump(proc.stderr, []), proc.exited]);
  clearTimeout(timer);
  const code = proc.exitCode;
  return code === 0 ? { label, passed: 1, failed: 0, code, crashed: false } : { label, passed: 0, failed: 1, code, crashed: true };
}

const e2eDir = join(root, "tests/e2e");
const e2eFiles = (existsSync(e2eDir) ? readdirSync(e2eDir) : []).filter((f) => f.endsWith(".e2e.ts")).sort();
const outcomes: Outcome[] = [];
if (!e2eOnly) {
  outcomes.push(await check("type check", "tsc", ["--noEmit", "-p", "."]));
  outcomes.push(await check("lint", "biome", ["lint", "--max-diagnostics=50"]));
  outcomes.push(await run("unit + route tests", ["test"]));
}
for (const f of e2eFiles) outcomes.push(await run(`e2e ${f}`, ["test", `./tests/e2e/${f}`]));

await written;
const lines = outcomes.map((o) => `  ${o.label.padEnd(40)} ${String(o.passed).padStart(4)} passed ${String(o.failed).padStart(3)} failed${o.crashed ? `  (exit ${o.code ?? "killed"}, counted as a failure)` : ""}`);
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`\nSummary\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || outcomes.some((o) => o.code !== 0) ? 1 : 0);
