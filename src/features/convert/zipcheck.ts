import { ConvertError } from "./tools.ts";

// Office Open XML, OpenDocument and EPUB files are zips. A few hundred KB can inflate to gigabytes
// (a "zip bomb"); the central directory declares every entry's size, so refuse before any tool
// inflates it. Real documents stay far below these limits; images are stored already compressed.
export const MAX_ENTRY_BYTES = 256 << 20;
export const MAX_TOTAL_BYTES = 1 << 30;
const MAX_ENTRIES = 50_000;

/** Sum of the declared uncompressed sizes, or null when the central directory is unreadable. */
export function declaredZipSize(b: Uint8Array): { total: number; largest: number; entries: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let eocd = b.length - 22; eocd >= Math.max(0, b.length - 65_557); eocd--) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    const count = view.getUint16(eocd + 10, true);
    let p = view.getUint32(eocd + 16, true);
    let total = 0;
    let largest = 0;
    let entries = 0;
    for (; entries < count && p + 46 <= b.length && view.getUint32(p, true) === 0x02014b50; entries++) {
      // 0xFFFFFFFF means ZIP64: the real size is larger than 4 GB can say here.
      const size = view.getUint32(p + 24, true);
      const bytes = size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size;
      total += bytes;
      largest = Math.max(largest, bytes);
      p += 46 + view.getUint16(p + 28, true) + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    }
    return { total, largest, entries };
  }
  return null;
}

export function checkZipSize(b: Uint8Array) {
  const z = declaredZipSize(b);
  if (!z) throw new ConvertError("文件已损坏：压缩包目录无法读取");
  if (z.entries > MAX_ENTRIES || z.largest > MAX_ENTRY_BYTES || z.total > MAX_TOTAL_BYTES) {
    const mb = Math.round(Math.min(z.total, 4 * MAX_TOTAL_BYTES) / (1 << 20));
    throw new ConvertError(`文件解压后过大（约 ${mb} MB），疑似压缩炸弹，已拒绝转换`);
  }
}
