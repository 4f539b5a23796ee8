// Issue 13 item 1: a script that reads the captcha's structure must not solve it.
// The solver below is the one that passed 12/12 against the old SVG: it groups <path>s into
// character cells, describes each cell by the segment and point counts of its paths, and learns a
// table "description → character" from many captchas whose answers it was told. It now meets a PNG
// (no paths at all); and even the vector drawing the PNG is made from gives it nothing to go on.
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { peekCaptchaAnswerForTests } from "#src/features/captcha/service.ts";
import { FRAGMENTS_PER_CHAR, renderCaptchaSvg } from "#src/features/captcha/svg.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { freshIp, setConfig } from "./accounts-fixtures.ts";

const t = setupTestApp();
const W = 240;
const H = 60;
const LEN = 4;

interface PathInfo { sig: string; cx: number; span: number }

/** Every <path>: its command letters with counts and its number count, and where it sits. */
function pathsOf(svg: string): PathInfo[] {
  return [...svg.matchAll(/<path[^>]*\sd="([^"]+)"/g)].map((m) => {
    const d = m[1]!;
    const cmds = d.match(/[A-Za-z]/g) ?? [];
    const counts = new Map<string, number>();
    for (const c of cmds) counts.set(c, (counts.get(c) ?? 0) + 1);
    const nums = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
    const xs = nums.filter((_, i) => i % 2 === 0);
    const ys = nums.filter((_, i) => i % 2 === 1);
    // Which way the path starts (above or below its own middle) tells mirror images apart: 6 from 9.
    const up = ys[0]! < ys.reduce((a, b) => a + b, 0) / (ys.length || 1) ? "^" : "v";
    const sig = `${[...counts].sort().map(([k, v]) => `${k}${v}`).join("")}/${nums.length / 2}${up}`;
    return { sig, cx: xs.reduce((a, b) => a + b, 0) / (xs.length || 1), span: Math.max(...xs) - Math.min(...xs) };
  });
}

/** Cell descriptions: the sorted signatures of the paths whose centre falls in each character cell. */
function describeCells(svg: string, n: number): string[] {
  const padX = W * 0.06;
  const cell = (W - padX * 2) / n;
  const cells: string[][] = Array.from({ length: n }, () => []);
  for (const p of pathsOf(svg)) {
    if (p.span > W * 0.5) continue; // curves across the whole image are noise
    const i = Math.floor((p.cx - padX) / cell);
    if (i >= 0 && i < n) cells[i]!.push(p.sig);
  }
  return cells.map((c) => `${c.length}:${c.sort().join(",")}`);
}

function makeSolver() {
  const table = new Map<string, Map<string, number>>();
  const overall = new Map<string, number>();
  return {
    learn(cells: string[], answer: string) {
      cells.forEach((d, i) => {
        const ch = answer[i]!;
        const row = table.get(d) ?? new Map<string, number>();
        row.set(ch, (row.get(ch) ?? 0) + 1);
        table.set(d, row);
        overall.set(ch, (overall.get(ch) ?? 0) + 1);
      });
    },
    solve(cells: string[]): string {
      const best = (m: Map<string, number> | undefined) => [...(m ?? overall)].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "0";
      return cells.map((d) => best(table.get(d))).join("");
    },
    distinct: () => table.size,
  };
}

const dataUrlToSvg = (url: string) =>
  url.startsWith("data:image/svg+xml;base64,") ? Buffer.from(url.slice(26), "base64").toString() : "";

const randomDigits = () => Array.from({ length: LEN }, () => String(Math.floor(Math.random() * 10))).join("");

function score(solver: ReturnType<typeof makeSolver>, samples: { cells: string[]; answer: string }[]) {
  let solved = 0;
  let chars = 0;
  for (const s of samples) {
    const guess = solver.solve(s.cells);
    if (guess === s.answer) solved++;
    for (let i = 0; i < LEN; i++) if (guess[i] === s.answer[i]) chars++;
  }
  return { solved, charRate: chars / (samples.length * LEN) };
}

describe("captcha against a structural solver", () => {
  test("served over HTTP: a PNG, and the solver trained on 300 answered captchas solves at most 1 of 12", async () => {
    await setConfig(t, "captcha", { type: "digit", length: LEN, width: W, height: H });
    await setConfig(t, "security", { enable_captcha_login: true });
    const fetchOne = async () => {
      const r = await t.req("GET", "/api/v1/user/captcha?type=login", { headers: { "x-forwarded-for": freshIp() } });
      expect(r.status).toBe(200);
      return { url: r.body.captcha as string, answer: peekCaptchaAnswerForTests(r.body.id)! };
    };
    const solver = makeSolver();
    for (let i = 0; i < 300; i++) {
      const c = await fetchOne();
      solver.learn(describeCells(dataUrlToSvg(c.url), LEN), c.answer);
    }
    const tests = [];
    for (let i = 0; i < 12; i++) {
      const c = await fetchOne();
      // What the browser gets is a raster image of the configured size.
      expect(c.url).toStartWith("data:image/png;base64,");
      const meta = await sharp(Buffer.from(c.url.slice(22), "base64")).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", W, H]);
      tests.push({ cells: describeCells(dataUrlToSvg(c.url), LEN), answer: c.answer });
    }
    expect(score(solver, tests).solved).toBeLessThanOrEqual(1);
  }, 60_000);

  test("the vector drawing itself: every cell looks alike, per-character hits stay near chance", () => {
    const solver = makeSolver();
    for (let i = 0; i < 600; i++) {
      const answer = randomDigits();
      solver.learn(describeCells(renderCaptchaSvg(answer, W, H), LEN), answer);
    }
    const samples = Array.from({ length: 240 }, () => {
      const answer = randomDigits();
      return { cells: describeCells(renderCaptchaSvg(answer, W, H), LEN), answer };
    });
    const { solved, charRate } = score(solver, samples.slice(0, 12));
    expect(solved).toBeLessThanOrEqual(1);
    // Chance for a digit is 10%; the old one-path-per-digit drawing gave 100%.
    expect(score(solver, samples).charRate).toBeLessThan(0.2);
    expect(charRate).toBeLessThan(0.35);
  });

  test("every path has the same shape class and every character the same number of fragments", () => {
    for (const text of ["0123", "4567", "8918"]) {
      const paths = pathsOf(renderCaptchaSvg(text, W, H));
      expect(new Set(paths.map((p) => p.sig.slice(0, -1)))).toEqual(new Set(["M1Q3/7"]));
      // At least the glyph fragments, plus decoys and two curves across the image.
      expect(paths.length).toBeGreaterThanOrEqual(LEN * (FRAGMENTS_PER_CHAR + 1) + 2);
    }
  });
});
