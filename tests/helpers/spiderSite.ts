// A small web site on loopback for the spider tests, the browser spec and the bench: an index page
// linking to the sample documents of assets/samples, a sub-page one level down, and the traps the
// spider must refuse — a redirect to the cloud metadata address, a file far over the size limit
// (streamed without a length, so only counting the bytes can stop it), an HTML page posing as a
// PDF, a page robots.txt forbids, a missing file, a link to another site — plus a copy of a file
// the test puts in the library first (`duplicate`).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const SAMPLES = resolve(import.meta.dir, "../../assets/samples");
export const sample = (name: string) => new Uint8Array(readFileSync(join(SAMPLES, name)));

export interface SpiderSite { url: string; port: number; hits: Map<string, number>; stop: () => void }

/** Sample documents the index links to (path on the site → sample file). */
export const SITE_FILES: Record<string, string> = {
  "/files/physics.pdf": "高中物理公式.pdf",
  "/files/summary.docx": "工作总结模板.docx",
  "/files/poems.txt": "古诗词选.txt",
};
/** Linked from /more.html, one level below the index. */
export const DEEP_FILE = { path: "/deep/rules.epub", sample: "公司规章制度.epub" };
/** Served at /copy/sales.xlsx: the tests upload the same sample into the library first. */
export const DUPLICATE = { path: "/copy/sales.xlsx", sample: "销售数据表.xlsx" };

const page = (title: string, body: string) => `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

export function startSpiderSite(opts: { hugeBytes?: number; extraFiles?: number } = {}): SpiderSite {
  const hits = new Map<string, number>();
  const huge = opts.hugeBytes ?? 3 * 1024 * 1024;
  const extra = opts.extraFiles ?? 0;
  const pdf = sample("高中物理公式.pdf");
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path === "/robots.txt") return new Response("User-agent: *\nDisallow: /private/\n", { headers: { "content-type": "text/plain" } });
      if (path === "/") {
        const links = [
          ...Object.keys(SITE_FILES).map((p) => `<li><a href="${p}">${SITE_FILES[p]!.replace(/\.\w+$/, "")}</a></li>`),
          `<li><a href="/trap/redirect.pdf">内部资料</a></li>`,
          `<li><a href="/trap/huge.pdf">超大文件</a></li>`,
          `<li><a href="/trap/fake.pdf">伪装的 PDF</a></li>`,
          `<li><a href="/private/secret.pdf">禁止采集</a></li>`,
          `<li><a href="/trap/missing.doc">已删除的文件</a></li>`,
          `<li><a href="${DUPLICATE.path}">销售数据表</a></li>`,
          `<li><a href="http://other.example/elsewhere.pdf">别的网站</a></li>`,
          `<li><a href="/more.html">更多资料</a></li>`,
          ...Array.from({ length: extra }, (_, i) => `<li><a href="/bulk/${i}.pdf">批量文档 ${i}</a></li>`),
        ];
        return new Response(page("资料下载", `<h1>资料下载</h1><ul>${links.join("")}</ul>`), { headers: { "content-type": "text/html; charset=utf-8" } });
      }
      if (path === "/more.html") return new Response(page("更多资料", `<a href="${DEEP_FILE.path}">公司规章制度</a>`), { headers: { "content-type": "text/html; charset=utf-8" } });
      const file = SITE_FILES[path] ?? (path === DEEP_FILE.path ? DEEP_FILE.sample : path === DUPLICATE.path ? DUPLICATE.sample : null);
      if (file) return new Response(sample(file), { headers: { "content-type": "application/octet-stream" } });
      // Distinct bytes per bulk file: a valid PDF with a comment that differs.
      const bulk = /^\/bulk\/(\d+)\.pdf$/.exec(path);
      if (bulk) return new Response(Buffer.concat([pdf, Buffer.from(`\n% bulk ${bulk[1]}\n`)]), { headers: { "content-type": "application/pdf" } });
      if (path === "/trap/redirect.pdf") return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/secret.pdf" } });
      if (path === "/trap/fake.pdf") return new Response(page("登录", "<p>请先登录后下载</p>"), { headers: { "content-type": "application/pdf" } });
      // Sends the start of a PDF, then nothing: only the spider's time-out ends the download.
      if (path === "/slow/stalled.pdf") {
        return new Response(new ReadableStream({ start(ctrl) { ctrl.enqueue(new TextEncoder().encode("%PDF-1.4\n")); } }), { headers: { "content-type": "application/pdf" } });
      }
      if (path === "/trap/huge.pdf") {
        let sent = 0;
        const chunk = new Uint8Array(64 * 1024).fill(0x41);
        chunk.set(new TextEncoder().encode("%PDF-1.4\n"));
        return new Response(new ReadableStream({
          pull(ctrl) {
            if (sent >= huge) return ctrl.close();
            ctrl.enqueue(chunk);
            sent += chunk.length;
          },
        }), { headers: { "content-type": "application/pdf" } });
      }
      return new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port!, hits, stop: () => server.stop(true) };
}
