// `bun run test`: unit and route tests in one `bun test` run, then each browser spec
// (tests/e2e/*.e2e.ts) in its own run. bun prints its " N pass" / " N fail" summary to stderr and
// CI reads none of it, so the totals are printed here as the very last line: `N passed, N failed`.
// `bun run test:e2e` runs only the browser specs.
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

const e2eDir = join(root, "tests/e2e");
const e2eFiles = (existsSync(e2eDir) ? readdirSync(e2eDir) : []).filter((f) => f.endsWith(".e2e.ts")).sort();
const outcomes: Outcome[] = [];
if (!e2eOnly) outcomes.push(await run("unit + route tests", ["test"]));
for (const f of e2eFiles) outcomes.push(await run(`e2e ${f}`, ["test", `./tests/e2e/${f}`]));

await written;
const lines = outcomes.map((o) => `  ${o.label.padEnd(40)} ${String(o.passed).padStart(4)} passed ${String(o.failed).padStart(3)} failed${o.crashed ? `  (exit ${o.code ?? "killed"}, counted as a failure)` : ""}`);
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`\nSummary\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || outcomes.some((o) => o.code !== 0) ? 1 : 0);
