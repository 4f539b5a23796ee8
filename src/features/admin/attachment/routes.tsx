import { Hono } from "hono";
import { z } from "zod";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { badRequest } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { idsFrom } from "../crud/routes.ts";
import { descriptionField, enableField, idField, idQuery, pageQuery, dateRangeQuery, withDateRange } from "../crud/schema.ts";
import { renderTablePage } from "../page.tsx";
import { ATTACHMENT_TYPES, attachmentService, deleteAttachments, listAttachments } from "./service.ts";
import { IMAGE_KINDS, receiveImage, resolveUpload, storeSpooledImage, type ImageKind } from "./storage.ts";

export const attachmentRoutes = new Hono<AppEnv>();

const listQuery = z.object({
  ...pageQuery(20),
  type: z.coerce.number({ error: "附件类型无效" }).int("附件类型无效").min(0, "附件类型无效").max(ATTACHMENT_TYPES.length - 1, "附件类型无效").optional(),
  keyword: z.string().max(64, "关键词不能超过 64 个字符").optional(),
  ...dateRangeQuery,
});
const updateBody = z.object({ id: idField, enable: enableField.optional(), description: descriptionField().optional() });

attachmentRoutes.get("/api/v1/attachment/list", adminApi, validate("query", listQuery), (c) => c.json(listAttachments(withDateRange(c.req.valid("query")))));
attachmentRoutes.get("/api/v1/attachment", adminApi, validate("query", idQuery), (c) => c.json(attachmentService.mustGet(c.req.valid("query").id)));
attachmentRoutes.put("/api/v1/attachment", adminApi, validate("json", updateBody), (c) => {
  const { id, ...patch } = c.req.valid("json");
  return c.json(attachmentService.update(id, patch));
});
attachmentRoutes.delete("/api/v1/attachment", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteAttachments(await idsFrom(c)) }));

// Multipart `file`, streamed to a temp file: the declared size is checked first, and a body that
// hides its length (chunked) is cut off with a 413 as soon as the file passes 5 MB.
attachmentRoutes.post("/api/v1/upload/:kind{banner|config}", adminApi, async (c) => {
  const kind = c.req.param("kind") as ImageKind;
  if (!(kind in IMAGE_KINDS)) throw badRequest("不支持的上传类型");
  const file = await receiveImage(c.req.raw);
  try {
    const row = await storeSpooledImage(file, kind, { userId: c.get("user")!.id, ip: clientIp(c) });
    return c.json({ message: "上传成功", ...row });
  } finally {
    file.cleanup();
  }
});

// Stored names are content hashes, so a URL's bytes never change: browsers may keep them a year.
attachmentRoutes.get("/uploads/*", async (c) => {
  const file = resolveUpload(c.req.path);
  const f = file ? Bun.file(file) : null;
  if (!f || !(await f.exists())) return c.notFound();
  return new Response(f, { headers: { "Content-Type": f.type, "Cache-Control": "public, max-age=31536000, immutable" } });
});

const TYPE_OPTIONS = ATTACHMENT_TYPES.map((label, value) => ({ value, label }));

attachmentRoutes.get("/admin/attachment", adminPage, (c) => {
  const initial = listAttachments({ page: 1, size: 20 });
  return renderTablePage(c, {
    title: "附件管理",
    active: "attachment",
    intro: <p>删除附件记录时，若没有其他记录使用同一文件，磁盘上的文件也会一并删除。</p>,
    table: {
      entity: "attachment", listPath: "/attachment/list", listKey: "attachment", pageSize: 20, canCreate: false, toggle: "enable", keyword: true, dateRange: "上传时间",
      filter: { name: "type", label: "类型", options: TYPE_OPTIONS },
      initial: { total: initial.total, rows: initial.attachment },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "path", label: "预览", kind: "image", width: 80 },
        { key: "name", label: "文件名" },
        { key: "type", label: "类型", kind: "option", options: TYPE_OPTIONS },
        { key: "size", label: "大小", kind: "size" },
        { key: "ext", label: "扩展名", width: 70 },
        { key: "username", label: "上传者" },
        { key: "description", label: "描述" },
        { key: "enable", label: "启用", width: 70 },
        { key: "created_at", label: "上传时间", kind: "datetime" },
      ],
      fields: [
        { name: "enable", label: "启用", kind: "switch" },
        { name: "description", label: "描述", kind: "textarea", maxLength: 255 },
      ],
      defaults: {},
    },
  });
});
