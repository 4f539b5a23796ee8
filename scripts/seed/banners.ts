// Demo banner pictures drawn in code and encoded as PNG, because the uploads route serves raster
// images only (an SVG can carry script). The banner's title is shown by the page over the picture.
import { crc32, deflateSync } from "node:zlib";

type RGB = [number, number, number];

export interface BannerTheme { from: RGB; to: RGB; accent: RGB }

export const BANNER_THEMES: BannerTheme[] = [
  { from: [22, 93, 255], to: [64, 158, 255], accent: [255, 255, 255] },
  { from: [0, 150, 136], to: [76, 201, 160], accent: [255, 255, 255] },
  { from: [245, 108, 68], to: [250, 176, 70], accent: [255, 255, 255] },
];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** 8-bit RGB PNG; every row uses the Sub filter, which suits smooth gradients. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array<ArrayBuffer> {
  const stride = width * 3;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    raw[row] = 1;
    for (let x = 0; x < stride; x++) {
      const cur = rgb[y * stride + x]!;
      const left = x >= 3 ? rgb[y * stride + x - 3]! : 0;
      raw[row + 1 + x] = (cur - left) & 0xff;
    }
  }
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const inRoundRect = (x: number, y: number, l: number, t: number, w: number, h: number, r: number) => {
  if (x < l || y < t || x >= l + w || y >= t + h) return false;
  const cx = Math.min(Math.max(x, l + r), l + w - r);
  const cy = Math.min(Math.max(y, t + r), t + h - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

/**
 * A diagonal gradient with soft circles and a stack of stylised document pages on the right:
 * recognisably a document site's banner without any text baked in.
 */
export function drawBanner(theme: BannerTheme, width = 960, height = 300): Uint8Array<ArrayBuffer> {
  const rgb = new Uint8Array(width * height * 3);
  const circles = [
    { x: width * 0.12, y: height * 1.05, r: height * 0.55, a: 0.1 },
    { x: width * 0.45, y: -height * 0.2, r: height * 0.45, a: 0.08 },
    { x: width * 0.95, y: height * 0.9, r: height * 0.35, a: 0.1 },
  ];
  const pageW = height * 0.42;
  const pageH = height * 0.56;
  const pages = [0, 1, 2].map((i) => ({ l: width * 0.66 + i * pageW * 0.32, t: height * 0.2 + i * height * 0.06, a: 0.35 + i * 0.3 }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const g = (x / width) * 0.7 + (y / height) * 0.3;
      let c = [0, 1, 2].map((k) => theme.from[k]! + (theme.to[k]! - theme.from[k]!) * g);
      const blend = (alpha: number) => (c = c.map((v, k) => v + (theme.accent[k]! - v) * alpha));
      for (const ci of circles) if ((x - ci.x) ** 2 + (y - ci.y) ** 2 <= ci.r ** 2) blend(ci.a);
      for (const p of pages) {
        if (!inRoundRect(x, y, p.l, p.t, pageW, pageH, 10)) continue;
        blend(p.a);
        // Text lines on the front page.
        if (p === pages[2]) {
          const ly = (y - p.t - pageH * 0.18) / (pageH * 0.12);
          const line = Math.floor(ly);
          const lineWidth = line === 5 ? 0.45 : 0.72;
          if (ly >= 0 && line <= 5 && ly - line < 0.34 && x > p.l + pageW * 0.14 && x < p.l + pageW * (0.14 + lineWidth)) {
            c = c.map((v, k) => v + (theme.from[k]! - v) * 0.35);
          }
        }
      }
      const i = (y * width + x) * 3;
      rgb[i] = Math.round(c[0]!);
      rgb[i + 1] = Math.round(c[1]!);
      rgb[i + 2] = Math.round(c[2]!);
    }
  }
  return encodePng(width, height, rgb);
}
