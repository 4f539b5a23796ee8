import { GLYPHS, type Point } from "./glyphs.ts";

// Renders challenge text as distorted strokes over noise: every character gets its own rotation,
// skew, scale, baseline and colour, every point a little jitter, and curves cross the text.

const rand = (min: number, max: number) => min + Math.random() * (max - min);
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const f = (n: number) => n.toFixed(1);

const INKS = ["#1d39c4", "#0958d9", "#531dab", "#c41d7f", "#d4380d", "#08979c", "#389e0d", "#ad4e00", "#262626"];
const BACKGROUNDS = ["#f0f5ff", "#f6ffed", "#fff7e6", "#f9f0ff", "#e6fffb", "#fff0f6", "#f5f5f5"];

function noiseCurve(w: number, h: number, width: number): string {
  const y0 = rand(0.15, 0.85) * h;
  const y1 = rand(0.15, 0.85) * h;
  return `<path d="M${f(rand(-10, w * 0.1))} ${f(y0)} C${f(w * 0.33)} ${f(rand(-0.2, 1.2) * h)} ${f(w * 0.66)} ${f(rand(-0.2, 1.2) * h)} ${f(rand(w * 0.9, w + 10))} ${f(y1)}" fill="none" stroke="${pick(INKS)}" stroke-width="${f(width)}" stroke-opacity="${f(rand(0.35, 0.7))}" stroke-linecap="round"/>`;
}

export function renderCaptchaSvg(text: string, width: number, height: number): string {
  const chars = [...text];
  const padX = width * 0.06;
  const cell = (width - padX * 2) / chars.length;
  const scale = Math.min((cell * 0.78) / 10, (height * 0.66) / 16);
  const stroke = Math.max(1.6, scale * 1.45);
  const parts: string[] = [];
  for (let i = 0; i < 40; i++) {
    parts.push(`<circle cx="${f(rand(0, width))}" cy="${f(rand(0, height))}" r="${f(rand(0.6, 1.8))}" fill="${pick(INKS)}" fill-opacity="${f(rand(0.2, 0.5))}"/>`);
  }
  for (let i = 0; i < 3; i++) parts.push(noiseCurve(width, height, rand(0.8, 1.6)));
  chars.forEach((ch, i) => {
    const glyph = GLYPHS[ch];
    if (!glyph) return;
    const s = scale * rand(0.88, 1.08);
    const angle = (rand(-22, 22) * Math.PI) / 180;
    const skew = rand(-0.25, 0.25);
    const cx = padX + cell * (i + 0.5) + rand(-cell * 0.08, cell * 0.08);
    const cy = height / 2 + rand(-height * 0.08, height * 0.08);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const map = ([x, y]: Point): string => {
      // Centre the 10×16 cell, skew, scale, rotate, then jitter the point.
      const gx = (x - 5 + (y - 8) * skew) * s;
      const gy = (y - 8) * s;
      return `${f(cx + gx * cos - gy * sin + rand(-0.35, 0.35) * s)} ${f(cy + gx * sin + gy * cos + rand(-0.35, 0.35) * s)}`;
    };
    const d = glyph.map((line) => `M${line.map(map).join(" L")}`).join(" ");
    parts.push(`<path d="${d}" fill="none" stroke="${pick(INKS)}" stroke-width="${f(stroke * rand(0.85, 1.15))}" stroke-linecap="round" stroke-linejoin="round"/>`);
  });
  // One curve drawn over the text, thinner than the strokes so the characters stay legible.
  parts.push(noiseCurve(width, height, Math.max(1, stroke * 0.45)));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${pick(BACKGROUNDS)}"/>${parts.join("")}</svg>`;
}

export const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
