import { Parser } from "htmlparser2";

// Links of a fetched page, read with an HTML parser (never regular expressions over HTML):
// <a href> with its text, <base href> honoured, fragments dropped.

/** Document types the spider knows, by URL extension (the downloaded bytes decide the real type). */
export const DOCUMENT_EXTS = ["pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "wps", "odt", "odp", "ods", "rtf", "epub", "mobi", "azw3", "txt", "md"];

export interface Link { url: URL; text: string }

export function extractLinks(html: string, pageUrl: URL): Link[] {
  const out: Link[] = [];
  let base = pageUrl;
  let open: { href: string; text: string; title: string } | null = null;
  const push = (href: string, text: string) => {
    try {
      const u = new URL(href.trim(), base);
      if (u.protocol !== "http:" && u.protocol !== "https:") return;
      u.hash = "";
      out.push({ url: u, text: text.replace(/\s+/g, " ").trim().slice(0, 255) });
    } catch {}
  };
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === "base" && attrs.href) {
        try {
          base = new URL(attrs.href, pageUrl);
        } catch {}
      } else if (name === "a" && attrs.href !== undefined) {
        if (open) push(open.href, open.text || open.title);
        open = { href: attrs.href, text: "", title: attrs.title ?? "" };
      }
    },
    ontext(text) {
      if (open) open.text += text;
    },
    onclosetag(name) {
      if (name === "a" && open) {
        push(open.href, open.text || open.title);
        open = null;
      }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return out;
}

/** The extension a URL's path ends with ("/a/b.PDF?x=1" → "pdf"), or "". */
export function urlExt(u: URL): string {
  const last = decodeURIComponent(u.pathname.split("/").pop() ?? "");
  const dot = last.lastIndexOf(".");
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : "";
}

/** A readable title for a document link: its text, else the file name without extension. */
export function titleOf(link: Link): string {
  const ext = urlExt(link.url);
  let name = "";
  try {
    name = decodeURIComponent(link.url.pathname.split("/").pop() ?? "");
  } catch {
    name = link.url.pathname.split("/").pop() ?? "";
  }
  const bare = ext && name.toLowerCase().endsWith(`.${ext}`) ? name.slice(0, -ext.length - 1) : name;
  const text = link.text.replace(new RegExp(`\\.${ext}$`, "i"), "").trim();
  return (text || bare || link.url.hostname).slice(0, 255);
}

/** Same site: the same registrable-ish host (www. ignored), any scheme or port. */
export const sameSite = (a: URL, b: URL) => a.hostname.replace(/^www\./, "") === b.hostname.replace(/^www\./, "");
