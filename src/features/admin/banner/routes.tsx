import { Hono } from "hono";
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { banner } from "#db/schema/site.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { badRequest } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { crudRoutes, isAdmin } from "../crud/routes.ts";
import { boolQuery, pageQuery } from "../crud/schema.ts";
import { renderTablePage } from "../page.tsx";
import { BANNER_TYPES, bannerCreate, bannerUpdate } from "./schema.ts";
import { bannerService as svc } from "./service.ts";

export const bannerRoutes = new Hono<AppEnv>();
bannerRoutes.route("/", crudRoutes("banner", svc, { create: bannerCreate, update: bannerUpdate }));

const listQuery = z.object({ ...pageQuery(100), enable: boolQuery, type: z.union([z.string(), z.array(z.string())]).optional() });

/** `type` may repeat (0 website, 1 mini-programme, 2 app); visitors get enabled banners only. */
function listBanners(admin: boolean, types: number[], q: { page: number; size: number; enable?: boolean }) {
  const enable = admin ? q.enable : true;
  const { total, rows } = svc.list({
    where: [types.length ? inArray(banner.type, types) : undefined, enable === undefined ? undefined : eq(banner.enable, enable)],
    page: q.page, size: q.size,
  });
  return { total, banner: rows };
}

bannerRoutes.get("/api/v1/banner/list", validate("query", listQuery), (c) => {
  const raw = (c.req.queries("type") ?? []).flatMap((t) => t.split(",")).filter((t) => t !== "");
  const types = raw.map(Number);
  if (types.some((t) => !BANNER_TYPES.some((b) => b.value === t))) throw badRequest("横幅类型无效");
  return c.json(listBanners(isAdmin(c, "banner"), types, c.req.valid("query")));
});

bannerRoutes.get("/admin/banner", adminPage, (c) => {
  const initial = listBanners(true, [0], { page: 1, size: 20 });
  return renderTablePage(c, {
    title: "横幅管理",
    active: "banner",
    intro: <p>网站横幅显示在首页轮播中；图片建议宽 1200 像素以上，支持 PNG、JPEG、GIF、WebP，不超过 5 MB。</p>,
    table: {
      entity: "banner", listPath: "/banner/list", listKey: "banner", pageSize: 20, canCreate: true, toggle: "enable",
      tabs: { name: "type", options: BANNER_TYPES },
      initial: { total: initial.total, rows: initial.banner },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "path", label: "图片", kind: "image", width: 90 },
        { key: "title", label: "标题" },
        { key: "url", label: "跳转链接", kind: "link" },
        { key: "type", label: "类型", kind: "option", options: BANNER_TYPES },
        { key: "sort", label: "排序", width: 70 },
        { key: "enable", label: "启用", width: 70 },
        { key: "created_at", label: "创建时间", kind: "datetime" },
      ],
      fields: [
        { name: "title", label: "标题", kind: "text", required: true, maxLength: 64 },
        { name: "path", label: "横幅图片", kind: "image", required: true, upload: "banner", placeholder: "上传图片，或填写 https:// 图片地址" },
        { name: "url", label: "跳转链接", kind: "text", placeholder: "站内路径如 /document/xxx，或 https:// 开头的链接" },
        { name: "type", label: "类型", kind: "select", options: BANNER_TYPES },
        { name: "sort", label: "排序", kind: "number", help: "数字越小越靠前" },
        { name: "enable", label: "启用", kind: "switch" },
        { name: "description", label: "描述", kind: "textarea", maxLength: 255 },
      ],
      defaults: { title: "", path: "", url: "", type: 0, sort: 0, enable: true, description: "" },
    },
  });
});
