import { deflateSync } from "node:zlib";

// Real image bytes for the admin upload tests, built here so no binary fixtures live in the repo.

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

function chunk(type: string, data: Uint8Array): number[] {
  const body = [...new TextEncoder().encode(type), ...data];
  return [...u32(data.length), ...body, ...u32(Bun.hash.crc32(new Uint8Array(body)))];
}

/** A valid RGB PNG of the given size; `seed` varies the pixels so hashes differ. */
export function pngBytes(width: number, height: number, seed = 0): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width * 3; x++) raw[y * (width * 3 + 1) + 1 + x] = (x * 7 + y * 13 + seed) & 255;
  const ihdr = new Uint8Array([...u32(width), ...u32(height), 8, 2, 0, 0, 0]);
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk("IHDR", ihdr), ...chunk("IDAT", new Uint8Array(deflateSync(raw))), ...chunk("IEND", new Uint8Array())]);
}

/** A tiny baseline JPEG header with a SOF0 frame of the given size (enough for content sniffing). */
export function jpegBytes(width: number, height: number): Uint8Array {
  const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...new TextEncoder().encode("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0, ...sof, 0xff, 0xd9]);
}

export function uploadForm(bytes: Uint8Array, name: string, type = "image/png"): FormData {
  const f = new FormData();
  f.append("file", new File([bytes as BlobPart], name, { type }));
  return f;
}
