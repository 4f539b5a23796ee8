// Answer export: markdown (or a stored chat answer) → a Word file or a PNG card, for logged-in users.
import { Hono } from "hono";
import { z } from "zod";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { badRequest, notFound, payloadTooLarge, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { markdownToDocx } from "./docx.ts";
import { markdownToPng } from "./image.ts";
import { type ExportSource, exportDisposition, exportFileName, messageSource, siteName, siteUrl } from "./service.ts";

export const MAX_EXPORT_CHARS = 100_000;
export const EXPORTS_PER_MINUTE = 20;
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const exportBody = z.object({
  markdown: z.string({ error: "导出内容必须是文本" }).optional(),
  message_id: z.coerce.number({ error: "消息 ID 不正确" }).int("消息 ID 不正确").positive("消息 ID 不正确").optional(),
  title: z.string({ error: "标题必须是文本" }).max(200, "标题不能超过 200 个字符").optional(),
});
type ExportBody = z.infer<typeof exportBody>;

// Before validation, so an anonymous request is a 401 whatever its body.
const requireUser = async (c: AppContext, next: () => Promise<void>) => {
  if (!c.get("user")) throw unauthorized();
  await next();
};

/** The markdown, title and references to export; checks ownership, size and the per-user rate. */
function source(c: AppContext, body: ExportBody): ExportSource {
  const user = c.get("user")!;
  let src: ExportSource;
  if (body.message_id !== undefined) {
    const msg = messageSource(body.message_id, user);
    if (!msg) throw notFound("消息不存在");
    src = { ...msg, title: body.title?.trim() || msg.title };
  } else src = { markdown: body.markdown ?? "", title: body.title?.trim() || undefined, references: [] };
  if (!src.markdown.trim()) throw badRequest("导出内容不能为空");
  if (src.markdown.length > MAX_EXPORT_CHARS) throw payloadTooLarge(`导出内容过长（最多 ${MAX_EXPORT_CHARS} 字）`);
  if (!hit(`export:${user.id}`, EXPORTS_PER_MINUTE, 60_000)) throw tooManyRequests("导出过于频繁，请稍后再试");
  return src;
}

function file(bytes: Uint8Array, type: string, name: string, ext: "docx" | "png") {
  // The renderers make fresh Uint8Arrays over their own ArrayBuffer.
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { "Content-Type": type, "Content-Disposition": exportDisposition(name, ext), "Cache-Control": "no-store" },
  });
}

export const exportRoutes = new Hono<AppEnv>();

exportRoutes.post("/api/v1/markdown2docx", requireUser, validate("json", exportBody), async (c) => {
  const src = source(c, c.req.valid("json"));
  const name = exportFileName(src.markdown, src.title);
  const bytes = await markdownToDocx(src.markdown, { title: src.title, references: src.references, siteUrl: siteUrl() });
  return file(bytes, DOCX_TYPE, name, "docx");
});

exportRoutes.post("/api/v1/markdown2image", requireUser, validate("json", exportBody), async (c) => {
  const src = source(c, c.req.valid("json"));
  const name = exportFileName(src.markdown, src.title);
  const bytes = await markdownToPng(src.markdown, { title: src.title, siteName: siteName() });
  return file(bytes, "image/png", name, "png");
});
