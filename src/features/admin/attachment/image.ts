// Image type and size from the bytes themselves: a file's name or declared type proves nothing.

export interface ImageInfo { ext: "png" | "jpg" | "gif" | "webp"; mime: string; width: number; height: number }

const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));
const be16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const le16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const le24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const be32 = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);

function jpegSize(b: Uint8Array): [number, number] | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return [be16(b, i + 7), be16(b, i + 5)];
    if (marker === 0xd9 || marker === 0xda) return null;
    i += 2 + be16(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): [number, number] | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30) return [le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff];
  if (chunk === "VP8L" && b.length >= 25 && b[20] === 0x2f) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === "VP8X" && b.length >= 30) return [le24(b, 24) + 1, le24(b, 27) + 1];
  return null;
}

/** PNG, JPEG, GIF or WebP with a readable, non-zero size; anything else is null. */
export function sniffImage(b: Uint8Array): ImageInfo | null {
  let found: [ImageInfo["ext"], string, [number, number] | null] | null = null;
  if (b.length >= 24 && be32(b, 0) === 0x89504e47 && be32(b, 4) === 0x0d0a1a0a && ascii(b, 12, 4) === "IHDR") found = ["png", "image/png", [be32(b, 16), be32(b, 20)]];
  else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) found = ["jpg", "image/jpeg", jpegSize(b)];
  else if (b.length >= 10 && /^GIF8[79]a$/.test(ascii(b, 0, 6))) found = ["gif", "image/gif", [le16(b, 6), le16(b, 8)]];
  else if (b.length >= 16 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") found = ["webp", "image/webp", webpSize(b)];
  if (!found || !found[2] || found[2][0] <= 0 || found[2][1] <= 0) return null;
  return { ext: found[0], mime: found[1], width: found[2][0], height: found[2][1] };
}
