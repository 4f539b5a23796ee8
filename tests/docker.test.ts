// The image is checked as text everywhere: it must start the site the same way the README and
// package.json do, and the README's quick start must be what CI runs. Where a Docker engine answers
// (`docker info` succeeds) the image is also built and run, and `/` must answer from inside it;
// without an engine that one test is skipped and says why.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const read = (f: string) => readFileSync(join(root, f), "utf8");
const dockerfile = read("Dockerfile");
const readme = read("README.md");
const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string> };

/** Instructions with their arguments, continuation lines joined. */
function instructions(text: string): [string, string][] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const m = /^(\w+)\s+(.*)$/.exec(l)!;
      return [m[1]!.toUpperCase(), m[2]!];
    });
}
const all = (name: string) => instructions(dockerfile).filter(([n]) => n === name).map(([, a]) => a);

/** The fenced shell blocks under a README heading, one command per line. */
function commandsUnder(heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start).toBeGreaterThan(-1);
  const rest = readme.slice(start + heading.length + 2);
  const section = rest.slice(0, rest.search(/\n#{1,3} /) === -1 ? undefined : rest.search(/\n#{1,3} /));
  return [...section.matchAll(/```(?:bash|sh)\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")));
}

describe("Dockerfile", () => {
  test("CMD is the start command the README documents, and package.json defines it", () => {
    const cmds = all("CMD");
    expect(cmds).toHaveLength(1);
    const cmd = (JSON.parse(cmds[0]!) as string[]).join(" ");
    expect(commandsUnder("### Production")).toContain(cmd);
    expect(cmd).toBe("bun run start");
    expect(pkg.scripts.start).toBe("bun scripts/build.ts && NODE_ENV=production bun src/server.ts");
    // The README says what `start` runs.
    expect(readme).toContain(pkg.scripts.start);
  });

  test("Debian bookworm-slim with bun from npm and the conversion tools and CJK fonts", () => {
    expect(all("FROM")).toEqual(["debian:bookworm-slim"]);
    const run = all("RUN").join("\n");
    expect(run).toContain("npm i -g bun");
    for (const p of ["poppler-utils", "mupdf-tools", "libreoffice-writer-nogui", "libreoffice-impress-nogui", "libreoffice-calc-nogui", "fonts-noto-cjk", "fonts-wqy-microhei"]) {
      expect(run).toContain(p);
    }
    expect(run).toContain("bun install --frozen-lockfile --production");
  });

  test("port, data volume and environment agree with the server's defaults", () => {
    expect(all("EXPOSE")).toEqual(["8880"]);
    expect(all("VOLUME")).toEqual(["/app/data"]);
    expect(all("WORKDIR")).toEqual(["/app"]);
    const env = all("ENV").join(" ");
    expect(env).toContain("PORT=8880");
    expect(env).toContain("DATA_DIR=/app/data");
    expect(env).toContain("NODE_ENV=production");
    expect(read("src/env.ts")).toContain("default(8880)");
  });

  test(".dockerignore keeps dependencies, build output and site data out of the context", () => {
    const ignored = read(".dockerignore").split("\n").map((l) => l.trim());
    for (const p of ["node_modules", "dist", "data", ".git"]) expect(ignored).toContain(p);
  });
});

/** Whether a Docker engine answers here; the reason is printed when it does not. */
function dockerEngine(): { ok: boolean; why: string } {
  if (!Bun.which("docker")) return { ok: false, why: "no docker command on PATH" };
  const info = Bun.spawnSync(["docker", "info", "--format", "{{.ServerVersion}}"], { stdout: "pipe", stderr: "pipe", timeout: 20_000 });
  if (info.exitCode !== 0) return { ok: false, why: `\`docker info\` failed: ${info.stderr.toString().trim().split("\n").at(-1) ?? `exit ${info.exitCode}`}` };
  return { ok: true, why: `Docker engine ${info.stdout.toString().trim()}` };
}
const engine = dockerEngine();
if (!engine.ok) console.log(`[docker.test] skipping the image build-and-run test: ${engine.why}`);

describe("the image, built and run", () => {
  // Building installs LibreOffice and friends: minutes on a cold cache.
  test.skipIf(!engine.ok)("docker build, docker run, then / answers 200 with the home page", async () => {
    const tag = `wenku-test:${process.pid}`;
    const name = `wenku-test-${process.pid}`;
    const run = (args: string[], timeout = 60_000) => {
      const r = Bun.spawnSync(["docker", ...args], { cwd: root, stdout: "pipe", stderr: "pipe", timeout });
      return { code: r.exitCode, out: r.stdout.toString().trim(), err: r.stderr.toString().trim() };
    };
    const built = run(["build", "-t", tag, "."], 30 * 60_000);
    expect(built.code, built.err.slice(-2000)).toBe(0);
    try {
      // Port 0 on the host side: Docker picks a free one, read back with `docker port`.
      const started = run(["run", "-d", "--name", name, "-p", "127.0.0.1::8880", "-e", "ADMIN_PASSWORD=docker-test-pass", tag]);
      expect(started.code, started.err).toBe(0);
      const port = run(["port", name, "8880/tcp"]).out.split("\n")[0]!.split(":").at(-1);
      expect(Number(port)).toBeGreaterThan(0);
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      let res: Response | null = null;
      while (Date.now() < deadline) {
        res = await fetch(`${base}/`).catch(() => null);
        if (res) break;
        await Bun.sleep(500);
      }
      expect(res?.status, run(["logs", name]).err.slice(-2000)).toBe(200);
      const html = await res!.text();
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain("site-header");
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      run(["rm", "-f", name]);
      run(["rmi", "-f", tag]);
    }
  }, 35 * 60_000);
});

describe("README quick start", () => {
  test("exactly two commands; the second is what .ci/run runs", () => {
    const cmds = commandsUnder("## Quick start");
    expect(cmds).toEqual(["bash scripts/quickstart.sh", "bash scripts/setup-test.sh"]);
    const ci = read(".ci/run").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    expect(ci.at(-1)).toBe(cmds[1]!);
  });

  test("every package.json script the README names exists", () => {
    for (const [, name] of readme.matchAll(/`bun run ([\w:-]+)/g)) expect(Object.keys(pkg.scripts)).toContain(name!);
  });
});
