import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeText, detectTextEncoding, sniffDocument } from "./sniff.ts";
import { checkZipSize, declaredZipSize } from "./zipcheck.ts";

const samples = join(import.meta.dir, "../../../assets/samples");
const sample = (f: string) => new Uint8Array(readFileSync(join(samples, f)));
const enc = (s: string) => new TextEncoder().encode(s);
const ole = (stream: string) => {
  const b = new Uint8Array(2048);
  b.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  b.set(new Uint8Array(Buffer.from(`Root Entry\0${stream}\0`, "utf16le")), 1024);
  return b;
};

describe("sniffDocument: the type comes from the bytes", () => {
  test.each([
    ["高中物理公式.pdf", "x.doc", { ext: "pdf", kind: "pdf" }],
    ["工作总结模板.docx", "a.pdf", { ext: "docx", kind: "office" }],
    ["产品介绍演示.pptx", "", { ext: "pptx", kind: "office" }],
    ["销售数据表.xlsx", "b.docx", { ext: "xlsx", kind: "office" }],
    ["公司规章制度.epub", "c.zip", { ext: "epub", kind: "ebook" }],
    ["请假审批流程图.png", "d.jpg", { ext: "png", kind: "image" }],
    ["古诗词选.txt", "古诗词选.txt", { ext: "txt", kind: "text" }],
    ["学习笔记.md", "学习笔记.md", { ext: "md", kind: "text" }],
    ["学习笔记.md", "notes.txt", { ext: "txt", kind: "text" }],
  ])("%s named %p", (file, name, want) => {
    expect(sniffDocument(sample(file), name)).toEqual(want as never);
  });

  test("OLE files by their main stream; the name picks between look-alikes", () => {
    expect(sniffDocument(ole("WordDocument"), "a.doc")).toEqual({ ext: "doc", kind: "office" });
    expect(sniffDocument(ole("WordDocument"), "a.wps")).toEqual({ ext: "wps", kind: "office" });
    expect(sniffDocument(ole("WordDocument"), "a.xls")).toEqual({ ext: "doc", kind: "office" });
    expect(sniffDocument(ole("Workbook"), "a.doc")).toEqual({ ext: "xls", kind: "office" });
    expect(sniffDocument(ole("PowerPoint Document"), "a.dps")).toEqual({ ext: "dps", kind: "office" });
    // An installer (.msi) is an OLE file too, but not a document.
    expect(sniffDocument(ole("SummaryInformation"), "setup.doc")).toBeNull();
  });

  test("other signatures", () => {
    expect(sniffDocument(enc("{\\rtf1\\ansi 你好}"), "a.doc")).toEqual({ ext: "rtf", kind: "office" });
    const mobi = new Uint8Array(100);
    mobi.set(enc("BOOKMOBI"), 60);
    expect(sniffDocument(mobi, "a.azw3")).toEqual({ ext: "azw3", kind: "ebook" });
    expect(sniffDocument(mobi, "a.mobi")).toEqual({ ext: "mobi", kind: "ebook" });
    expect(sniffDocument(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]), "")).toEqual({ ext: "jpg", kind: "image" });
    expect(sniffDocument(enc("GIF89a......"), "")).toEqual({ ext: "gif", kind: "image" });
    expect(sniffDocument(enc("RIFF\0\0\0\0WEBPVP8 "), "")).toEqual({ ext: "webp", kind: "image" });
  });

  test("not documents: empty, executables, random bytes, a plain zip", () => {
    expect(sniffDocument(new Uint8Array(), "a.pdf")).toBeNull();
    expect(sniffDocument(new Uint8Array(readFileSync(process.execPath).subarray(0, 65536)), "a.pdf")).toBeNull();
    expect(sniffDocument(crypto.getRandomValues(new Uint8Array(4096)), "a.txt")).toBeNull();
    const zip = new Uint8Array(readFileSync(join(samples, "工作总结模板.docx")));
    // Rename the [Content_Types].xml entry everywhere: an ordinary zip, not Office Open XML.
    const text = Buffer.from(zip).toString("latin1").replaceAll("[Content_Types].xml", "[Content_Typez].xml");
    expect(sniffDocument(new Uint8Array(Buffer.from(text, "latin1")), "a.docx")).toBeNull();
  });
});

describe("text encodings", () => {
  test("GBK, GB18030, UTF-8 with and without BOM, UTF-16", () => {
    const gbk = sample("古诗词选.txt");
    expect(detectTextEncoding(gbk)).toBe("gb18030");
    expect(decodeText(gbk)).toStartWith("古诗词选（常用篇目）");
    expect(decodeText(new Uint8Array([0x95, 0x32, 0x82, 0x36]))).toBe("\u{20000}");
    expect(detectTextEncoding(enc("床前明月光"))).toBe("utf-8");
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...enc("静夜思")]))).toBe("静夜思");
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from("春晓", "utf16le")]);
    expect(sniffDocument(utf16, "a.txt")).toEqual({ ext: "txt", kind: "text" });
    expect(decodeText(utf16)).toBe("春晓");
  });

  test("a multi-byte character cut at the probe's end still counts as UTF-8", () => {
    const long = enc("好".repeat(30_000));
    expect(long.length).toBeGreaterThan(64 * 1024);
    expect(detectTextEncoding(long)).toBe("utf-8");
  });
});

describe("zip size check", () => {
  test("declared sizes of a real DOCX are small", () => {
    const z = declaredZipSize(sample("工作总结模板.docx"))!;
    expect(z.entries).toBeGreaterThan(3);
    expect(z.total).toBeLessThan(1 << 20);
    expect(() => checkZipSize(sample("工作总结模板.docx"))).not.toThrow();
  });

  test("an unreadable central directory is refused", () => {
    expect(() => checkZipSize(sample("工作总结模板.docx").subarray(0, 1000))).toThrow(/压缩包目录无法读取/);
  });
});
