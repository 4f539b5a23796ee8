import { Hono } from "hono";
import { z } from "zod";
import { originalPath } from "#src/features/documents/paths.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { AppError, notFound, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { findDownloadable, listUserDownloads, requestDownload } from "./service.ts";
import { contentDisposition, contentTypeOf, verifyDownloadUrl } from "./signing.ts";

/** POST /document/download (a signed link), the link itself, and GET /user/download. */
export const downloadRoutes = new Hono<AppEnv>();

const MAX_ID = 2_147_483_647;
const UUID = /^[0-9A-Za-z-]{1,64}$/;

const downloadBody = z.object({
  id: z.number({ error: "文档 ID 必须是数字" }).int("文档 ID 不正确").positive("文档 ID 不正确").max(MAX_ID, "文档 ID 不正确").optional(),
  uuid: z.string({ error: "文档 UUID 必须是文本" }).regex(UUID, "文档 UUID 不正确").optional(),
}, { error: "请求内容必须是 JSON 对象" }).refine((b) => b.id !== undefined || b.uuid !== undefined, { message: "请指定要下载的文档" });

downloadRoutes.post("/api/v1/document/download", validate("json", downloadBody), (c) => {
  const b = c.req.valid("json");
  const r = requestDownload({
    userId: c.get("user")?.id ?? null,
    ip: clientIp(c),
    doc: b.id !== undefined ? { id: b.id } : { uuid: b.uuid! },
  });
  return c.json({ url: r.url, expires: r.expires, price: r.price });
});

const listQuery = z.object({
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(10_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(50, "每页最多 50 条").default(10),
});

downloadRoutes.get("/api/v1/user/download", validate("query", listQuery), (c) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  const q = c.req.valid("query");
  return c.json(listUserDownloads(u.id, q.page, q.size));
});

const expiredLink = () => new AppError(403, "link_expired", "下载链接已失效，请返回文档页面重新下载");

/** The link's query, strictly: anything malformed is just an invalid link. */
function parseLink(q: Record<string, string>) {
  const expires = /^\d{1,12}$/.test(q.expires ?? "") ? Number(q.expires) : NaN;
  const userId = /^\d{1,10}$/.test(q.u ?? "") ? Number(q.u) : NaN;
  const sig = /^[0-9a-f]{64}$/.test(q.sig ?? "") ? q.sig! : "";
  return Number.isFinite(expires) && Number.isFinite(userId) && sig ? { expires, userId, sig } : null;
}

/** Single "bytes=a-b" / "bytes=a-" / "bytes=-n" ranges, so interrupted downloads can resume. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | "invalid" {
  const m = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? "invalid" : { start, end };
}

downloadRoutes.get("/download/:uuid", async (c) => {
  const uuid = c.req.param("uuid");
  const link = UUID.test(uuid) ? parseLink(c.req.query()) : null;
  if (!link || !verifyDownloadUrl(uuid, link.expires, link.userId, link.sig)) throw expiredLink();
  const doc = findDownloadable({ uuid });
  const file = Bun.file(originalPath(doc.hash, doc.ext));
  if (!(await file.exists())) throw notFound("文件不存在，请联系管理员");
  const size = file.size;
  const headers: Record<string, string> = {
    "Content-Type": contentTypeOf(doc.ext),
    "Content-Disposition": contentDisposition(doc.title, doc.ext),
    // no-transform keeps the compression middleware off, so Content-Length stays exact.
    "Cache-Control": "private, no-store, no-transform",
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  };
  const range = parseRange(c.req.header("range"), size);
  if (range === "invalid") return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  if (range) {
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
    headers["Content-Length"] = String(range.end - range.start + 1);
    return new Response(file.slice(range.start, range.end + 1), { status: 206, headers });
  }
  headers["Content-Length"] = String(size);
  return new Response(file, { status: 200, headers });
});
