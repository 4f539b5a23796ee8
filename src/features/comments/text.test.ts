import { describe, expect, test } from "bun:test";
import { contentLength, linkPieces, normalizeContent } from "./text.ts";

describe("comment text", () => {
  test("normalising: line breaks unified, control and direction characters dropped, blank runs shortened, trimmed", () => {
    expect(normalizeContent("  a\r\nb\rc  ")).toBe("a\nb\nc");
    expect(normalizeContent("x\u0000y\u202ez\u200b\ufeff")).toBe("xyz");
    expect(normalizeContent("one  \n\n\n\n two")).toBe("one\n\n two");
    expect(normalizeContent(" \t\n\u200b ")).toBe("");
  });

  test("length counts characters, not UTF-16 units", () => {
    expect(contentLength("😀好a")).toBe(3);
  });

  test("links: one plain piece when not allowed; http(s) only, sentence punctuation left outside", () => {
    const text = "看 https://a.example/x?y=1。再看 http://b.example/p), 和 javascript:alert(1) 与 ftp://c";
    expect(linkPieces(text, false)).toEqual([{ text }]);
    const pieces = linkPieces(text, true);
    expect(pieces.filter((p) => p.href).map((p) => p.href)).toEqual(["https://a.example/x?y=1", "http://b.example/p"]);
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(linkPieces("没有链接", true)).toEqual([{ text: "没有链接" }]);
  });
});
