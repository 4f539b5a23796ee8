import { inflateRawSync } from "node:zlib";

// Detects a document's real type from its bytes. The name is only a hint, used where content
// cannot decide (OLE files hold doc/xls/ppt/wps alike; .md and .txt are both plain text).

export type DocKind = "pdf" | "office" | "ebook" | "text" | "image";
export type Sniffed = { ext: string; kind: DocKind };

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
// OLE compound files (doc/xls/ppt and Kingsoft WPS's wps/et/dps) are told apart by the name of
// their main stream in the directory (UTF-16LE); the name hint picks between look-alikes.
const OLE_TYPES: { stream: string; ext: string; alike: string[] }[] = [
  { stream: "WordDocument", ext: "doc", alike: ["doc", "dot", "wps"] },
  { stream: "PowerPoint Document", ext: "ppt", alike: ["ppt", "pps", "pot", "dps"] },
  { stream: "Workbook", ext: "xls", alike: ["xls", "xlt", "et"] },
  { stream: "Book", ext: "xls", alike: ["xls", "xlt", "et"] },
];

function sniffOle(b: Uint8Array, hint: string): Sniffed | null {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  for (const t of OLE_TYPES) {
    // Directory entries hold the name NUL-terminated in UTF-16LE.
    if (buf.indexOf(Buffer.from(`${t.stream}\0`, "utf16le")) >= 0) return { ext: t.alike.includes(hint) ? hint : t.ext, kind: "office" };
  }
  return null;
}
// How many bytes of a text file decide its encoding; the rest is decoded the same way.
const TEXT_PROBE = 64 * 1024;

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));

const extOf = (name: string) => {
  const m = /\.([a-z0-9]{1,10})$/i.exec(name.trim());
  return m ? m[1]!.toLowerCase() : "";
};

/** Local file headers of a zip: names and, for stored/deflated small entries, their data offsets. */
function zipEntries(b: Uint8Array) {
  const entries: { name: string; method: number; csize: number; dataAt: number }[] = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let p = 0;
  while (p + 30 <= b.length && view.getUint32(p, true) === 0x04034b50 && entries.length < 2000) {
    const flags = view.getUint16(p + 6, true);
    const method = view.getUint16(p + 8, true);
    const csize = view.getUint32(p + 18, true);
    const nameLen = view.getUint16(p + 26, true);
    const extraLen = view.getUint16(p + 28, true);
    const name = new TextDecoder().decode(b.subarray(p + 30, p + 30 + nameLen));
    const dataAt = p + 30 + nameLen + extraLen;
    entries.push({ name, method, csize, dataAt });
    // A data descriptor (bit 3) hides the size here; stop walking and fall back to the central directory.
    if (flags & 8 || csize === 0xffffffff) break;
    p = dataAt + csize;
  }
  return entries.concat(centralNames(b, view).filter((n) => !entries.some((e) => e.name === n)).map((name) => ({ name, method: -1, csize: 0, dataAt: -1 })));
}

/** Names from the central directory at the end of the zip (covers streamed zips). */
function centralNames(b: Uint8Array, view: DataView): string[] {
  const names: string[] = [];
  for (let eocd = b.length - 22; eocd >= Math.max(0, b.length - 65_557); eocd--) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    let p = view.getUint32(eocd + 16, true);
    const count = view.getUint16(eocd + 10, true);
    for (let i = 0; i < count && p + 46 <= b.length && view.getUint32(p, true) === 0x02014b50; i++) {
      const nameLen = view.getUint16(p + 28, true);
      names.push(new TextDecoder().decode(b.subarray(p + 46, p + 46 + nameLen)));
      p += 46 + nameLen + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    }
    break;
  }
  return names;
}

function zipText(b: Uint8Array, e: { method: number; csize: number; dataAt: number }): string {
  if (e.dataAt < 0 || e.csize > 1 << 20) return "";
  const raw = b.subarray(e.dataAt, e.dataAt + e.csize);
  try {
    // maxOutputLength guards a tiny "mimetype" entry that inflates to gigabytes.
    const data = e.method === 0 ? raw : e.method === 8 ? inflateRawSync(raw, { maxOutputLength: 1 << 16 }) : null;
    return data ? new TextDecoder().decode(data) : "";
  } catch {
    return "";
  }
}

function sniffZip(b: Uint8Array, hint: string): Sniffed | null {
  const entries = zipEntries(b);
  const mimeEntry = entries.find((e) => e.name === "mimetype");
  const mime = mimeEntry ? zipText(b, mimeEntry).trim() : "";
  if (mime === "application/epub+zip") return { ext: "epub", kind: "ebook" };
  const odf: Record<string, string> = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
  };
  if (odf[mime]) return { ext: odf[mime]!, kind: "office" };
  const names = new Set(entries.map((e) => e.name));
  if (!names.has("[Content_Types].xml")) return null;
  if (names.has("word/document.xml")) return { ext: hint === "dotx" ? "dotx" : "docx", kind: "office" };
  if (names.has("ppt/presentation.xml")) return { ext: hint === "ppsx" ? "ppsx" : "pptx", kind: "office" };
  if (names.has("xl/workbook.xml")) return { ext: "xlsx", kind: "office" };
  return null;
}

type TextEncodingName = "utf-8" | "gb18030" | "utf-16le" | "utf-16be";

/** The encoding of a text file from its leading bytes, or null when it is binary. */
export function detectTextEncoding(b: Uint8Array): TextEncodingName | null {
  const probe = b.subarray(0, TEXT_PROBE);
  if (startsWith(probe, [0xef, 0xbb, 0xbf])) return "utf-8";
  // Windows Notepad's "Unicode" is UTF-16 with a byte-order mark.
  if (startsWith(probe, [0xff, 0xfe])) return "utf-16le";
  if (startsWith(probe, [0xfe, 0xff])) return "utf-16be";
  // Control bytes other than tab/newline/CR/FF/ESC mean binary, not text.
  let controls = 0;
  for (const c of probe) if (c === 0 || (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27)) controls++;
  if (controls > 0) return null;
  // A multi-byte sequence may be cut at the probe's end; only the full file must be strict.
  const cut = probe.length < b.length;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(probe, { stream: cut });
    return "utf-8";
  } catch { /* not UTF-8: try the Chinese encodings */ }
  try {
    new TextDecoder("gb18030", { fatal: true }).decode(probe, { stream: cut });
    return "gb18030";
  } catch {
    return null;
  }
}

/** Decodes text bytes (UTF-8 with or without BOM, GBK/GB18030, UTF-16 with BOM) to a string. */
export function decodeText(b: Uint8Array): string {
  const enc = detectTextEncoding(b) ?? "utf-8";
  return new TextDecoder(enc).decode(b).replace(/^\uFEFF/, "");
}

/**
 * The real type of an uploaded file from its content, or null when it is not a supported
 * document (the upload is then refused). `nameHint` is the original file name or extension.
 */
export function sniffDocument(bytes: Uint8Array, nameHint = ""): Sniffed | null {
  const b = bytes;
  const hint = extOf(nameHint.includes(".") ? nameHint : `.${nameHint}`);
  if (b.length < 4) return null;
  // %PDF may follow a little junk (some generators prepend a BOM or whitespace).
  if (ascii(b, 0, 1024).includes("%PDF-")) return { ext: "pdf", kind: "pdf" };
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return sniffZip(b, hint);
  if (startsWith(b, OLE)) return sniffOle(b, hint);
  if (ascii(b, 0, 5) === "{\\rtf") return { ext: "rtf", kind: "office" };
  if (b.length >= 68 && ascii(b, 60, 68) === "BOOKMOBI") return { ext: hint === "azw3" || hint === "azw" ? "azw3" : "mobi", kind: "ebook" };
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: "png", kind: "image" };
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { ext: "jpg", kind: "image" };
  if (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a") return { ext: "gif", kind: "image" };
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return { ext: "webp", kind: "image" };
  if (detectTextEncoding(b)) return { ext: hint === "md" || hint === "markdown" ? "md" : "txt", kind: "text" };
  return null;
}
