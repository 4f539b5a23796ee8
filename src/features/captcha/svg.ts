import sharp from "sharp";
import { GLYPHS, type Point } from "./glyphs.ts";

// Renders challenge text so that its structure says nothing about the answer, then rasterises it.
//
// A structural solver once read the old SVG (one <path> per character whose segment and point counts
// named the digit). Now every stroke is resampled, warped and cut at random places into a FIXED
// number of fragments per character; every fragment — and every noise stroke — is the same shape
// class (M + three Q segments), drawn in the same inks and widths, in random order. Counting paths,
// segments or points per path or per character cell gives the same numbers for every character.
// The browser then receives a PNG, so there are no paths to read at all.

const rand = (min: number, max: number) => min + Math.random() * (max - min);
const randInt = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(list: readonly T[]) => list[randInt(list.length)]!;
const f = (n: number) => n.toFixed(1);

const INKS = ["#1d39c4", "#0958d9", "#531dab", "#c41d7f", "#d4380d", "#08979c", "#389e0d", "#ad4e00", "#262626"];
const BACKGROUNDS = ["#f0f5ff", "#f6ffed", "#fff7e6", "#f9f0ff", "#e6fffb", "#fff0f6", "#f5f5f5"];

/** Fragments per character, whatever the glyph: more than any glyph has strokes. */
export const FRAGMENTS_PER_CHAR = 6;
/** Samples along a fragment: M p0 Q p1 p2 Q p3 p4 Q p5 p6. */
const SAMPLES = 7;

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const lengthOf = (line: Point[]) => line.reduce((s, p, i) => (i ? s + dist(line[i - 1]!, p) : 0), 0);

/** The point at arc length `s` along a polyline. */
function along(line: Point[], s: number): Point {
  let left = s;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1]!;
    const b = line[i]!;
    const d = dist(a, b);
    if (left <= d || i === line.length - 1) {
      const t = d ? Math.min(1, left / d) : 0;
      return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    }
    left -= d;
  }
  return line[line.length - 1]!;
}

/** Splits `total` fragments over strokes by length, at least one each. */
function allocate(lengths: number[], total: number): number[] {
  const counts = lengths.map(() => 1);
  const sum = lengths.reduce((a, b) => a + b, 0) || 1;
  for (let left = total - counts.length; left > 0; left--) {
    // Give the next fragment to the stroke with the longest pieces so far, plus a little chance.
    let best = 0;
    let bestScore = -1;
    lengths.forEach((l, i) => {
      const score = l / sum / counts[i]! + rand(0, 0.05);
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    counts[best]!++;
  }
  return counts;
}

/** Random cut points in (0, len), none too close to another, sorted, with 0 and len at the ends. */
function cuts(len: number, pieces: number): number[] {
  const out = [0];
  const step = len / pieces;
  for (let i = 1; i < pieces; i++) out.push(step * i + rand(-0.3, 0.3) * step);
  out.push(len);
  return out;
}

/** One path of the one shape class: three quadratic segments through seven points. */
function fragmentPath(pts: Point[]): string {
  const q = (i: number) => {
    // Control point so the curve passes through the middle sample.
    const [a, m, b] = [pts[i]!, pts[i + 1]!, pts[i + 2]!];
    return `Q${f(2 * m[0] - (a[0] + b[0]) / 2)} ${f(2 * m[1] - (a[1] + b[1]) / 2)} ${f(b[0])} ${f(b[1])}`;
  };
  return `M${f(pts[0]![0])} ${f(pts[0]![1])} ${q(0)} ${q(2)} ${q(4)}`;
}

interface Style { inks: string[]; stroke: number }

function pathEl(pts: Point[], style: Style): string {
  return `<path d="${fragmentPath(pts)}" fill="none" stroke="${pick(style.inks)}" stroke-width="${f(style.stroke * rand(0.85, 1.15))}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** The glyph's strokes in image space: skewed, scaled, rotated, warped by a wave, jittered. */
function placeGlyph(ch: string, cx: number, cy: number, scale: number): Point[][] {
  const glyph = GLYPHS[ch] ?? [];
  const s = scale * rand(0.88, 1.08);
  const angle = (rand(-22, 22) * Math.PI) / 180;
  const skew = rand(-0.25, 0.25);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const wave = { ax: rand(0.3, 0.7), ay: rand(0.3, 0.7), kx: rand(0.4, 0.8), ky: rand(0.3, 0.6), px: rand(0, 6.3), py: rand(0, 6.3) };
  return glyph.map((line) => {
    // Resample densely so the warp bends straight strokes, not just moves their corners.
    const len = lengthOf(line);
    const n = Math.max(2, Math.ceil(len / 0.5));
    return Array.from({ length: n + 1 }, (_, i) => {
      const [x, y] = along(line, (len * i) / n);
      const wx = x + wave.ax * Math.sin(y * wave.kx + wave.px);
      const wy = y + wave.ay * Math.sin(x * wave.ky + wave.py);
      const gx = (wx - 5 + (wy - 8) * skew) * s;
      const gy = (wy - 8) * s;
      return [cx + gx * cos - gy * sin, cy + gx * sin + gy * cos] as Point;
    });
  });
}

/** A glyph as exactly FRAGMENTS_PER_CHAR fragments, cut at random places, overlapping a little. */
function fragmentsOf(strokes: Point[][], jitter: number): Point[][] {
  const lengths = strokes.map(lengthOf);
  const counts = allocate(lengths, FRAGMENTS_PER_CHAR);
  const out: Point[][] = [];
  strokes.forEach((line, si) => {
    const len = lengths[si]!;
    const c = cuts(len, counts[si]!);
    for (let k = 0; k < counts[si]!; k++) {
      const from = Math.max(0, c[k]! - len * 0.02);
      const to = Math.min(len, c[k + 1]! + len * 0.02);
      const pts = Array.from({ length: SAMPLES }, (_, i) => {
        const [x, y] = along(line, from + ((to - from) * i) / (SAMPLES - 1));
        return [x + rand(-jitter, jitter), y + rand(-jitter, jitter)] as Point;
      });
      // Either direction: the order a stroke is drawn in would otherwise tell 6 from 9.
      out.push(Math.random() < 0.5 ? pts : pts.reverse());
    }
  });
  return out;
}

/** A noise stroke of the same class: a gentle random curve about as long as a glyph fragment. */
function noiseFragment(cx: number, cy: number, reach: number, len: number): Point[] {
  const start: Point = [cx + rand(-reach, reach), cy + rand(-reach * 1.3, reach * 1.3)];
  let dir = rand(0, Math.PI * 2);
  const bend = rand(-0.5, 0.5);
  const pts: Point[] = [start];
  for (let i = 1; i < SAMPLES; i++) {
    dir += bend;
    const p = pts[i - 1]!;
    pts.push([p[0] + (Math.cos(dir) * len) / (SAMPLES - 1), p[1] + (Math.sin(dir) * len) / (SAMPLES - 1)]);
  }
  return pts;
}

/** A long curve across the image, still three Q segments. */
function crossCurve(w: number, h: number): Point[] {
  const y0 = rand(0.15, 0.85) * h;
  const y1 = rand(0.15, 0.85) * h;
  const wob = rand(-0.3, 0.3) * h;
  return Array.from({ length: SAMPLES }, (_, i) => {
    const t = i / (SAMPLES - 1);
    return [rand(-10, 0) + t * (w + 20), y0 + (y1 - y0) * t + wob * Math.sin(t * Math.PI * 2)] as Point;
  });
}

const shuffle = <T>(a: T[]): T[] => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = randInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

export function renderCaptchaSvg(text: string, width: number, height: number): string {
  const chars = [...text];
  const padX = width * 0.06;
  const cell = (width - padX * 2) / chars.length;
  const scale = Math.min((cell * 0.78) / 10, (height * 0.66) / 16);
  const style: Style = { inks: shuffle([...INKS]).slice(0, 3), stroke: Math.max(1.6, scale * 1.45) };
  const dots: string[] = [];
  for (let i = 0; i < 40; i++) {
    dots.push(`<circle cx="${f(rand(0, width))}" cy="${f(rand(0, height))}" r="${f(rand(0.6, 1.8))}" fill="${pick(INKS)}" fill-opacity="${f(rand(0.2, 0.5))}"/>`);
  }
  const paths: string[] = [];
  chars.forEach((ch, i) => {
    const cx = padX + cell * (i + 0.5) + rand(-cell * 0.08, cell * 0.08);
    const cy = height / 2 + rand(-height * 0.08, height * 0.08);
    const frags = fragmentsOf(placeGlyph(ch, cx, cy, scale), scale * 0.3);
    for (const p of frags) paths.push(pathEl(p, style));
    // One or two decoys of the same class per cell, as long as this glyph's own fragments.
    const fragLen = frags.reduce((s, p) => s + lengthOf(p), 0) / frags.length;
    for (let k = 1 + randInt(2); k > 0; k--) paths.push(pathEl(noiseFragment(cx, cy, scale * 4, fragLen * rand(0.4, 0.7)), style));
  });
  for (let i = 0; i < 2; i++) paths.push(pathEl(crossCurve(width, height), { ...style, stroke: Math.max(1, style.stroke * 0.45) }));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${pick(BACKGROUNDS)}"/>${dots.join("")}${shuffle(paths).join("")}</svg>`;
}

/** The drawing as a PNG data URL: what the browser gets, with no vector structure left to read. */
export async function captchaPngDataUrl(text: string, width: number, height: number): Promise<string> {
  const png = await sharp(Buffer.from(renderCaptchaSvg(text, width, height))).png({ compressionLevel: 6, palette: false }).toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}
