import { Hono } from "hono";
import AdminSpiderDocuments from "#islands/admin/AdminSpiderDocuments.tsx";
import AdminSpiderUrls from "#islands/admin/AdminSpiderUrls.tsx";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { categoryOptions } from "#src/features/documents/categories.ts";
import { creditName, setting } from "#src/features/settings/service.ts";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { Island } from "#src/views/Island.tsx";
import { DOCUMENT_EXTS } from "./links.ts";
import { createUrlsBody, DOC, docListQuery, idsBody, URL_STATUS, urlListQuery } from "./schema.ts";
import { createUrls, deleteDocuments, deleteUrls, listDocuments, listUrls, publishDocuments, retryDocuments, retryUrls } from "./service.ts";

// Spider API (every route an admin permission of category "spider", page /admin/spider) and the
// two admin screens 采集网址 and 采集文档.
export const spiderRoutes = new Hono<AppEnv>();

spiderRoutes.post("/api/v1/spider/url", adminApi, validate("json", createUrlsBody), (c) => {
  const rows = createUrls(c.req.valid("json"), c.get("user")!.id);
  return c.json({ message: `已提交 ${rows.length} 个网址，正在排队采集`, spider_url: rows });
});
spiderRoutes.get("/api/v1/spider/url/list", adminApi, validate("query", urlListQuery), (c) => c.json(listUrls(c.req.valid("query"))));
spiderRoutes.put("/api/v1/spider/url/retry", adminApi, validate("json", idsBody), (c) => c.json(retryUrls(c.req.valid("json").id)));
spiderRoutes.delete("/api/v1/spider/url", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteUrls(await idsFrom(c)) }));

spiderRoutes.get("/api/v1/spider/document/list", adminApi, validate("query", docListQuery), (c) => c.json(listDocuments(c.req.valid("query"))));
spiderRoutes.put("/api/v1/spider/document/retry", adminApi, validate("json", idsBody), (c) => c.json(retryDocuments(c.req.valid("json").id)));
spiderRoutes.put("/api/v1/spider/document/publish", adminApi, validate("json", idsBody), (c) => c.json(publishDocuments(c.req.valid("json").id)));
spiderRoutes.delete("/api/v1/spider/document", adminApi, async (c) => c.json({ message: "删除成功", deleted: deleteDocuments(await idsFrom(c)) }));

const options = (labels: Record<number, string>) => Object.entries(labels).map(([value, label]) => ({ value: Number(value), label }));

spiderRoutes.get("/admin/spider", adminPage, (c) => c.redirect("/admin/spider/url", 302));

spiderRoutes.get("/admin/spider/url", adminPage, (c) => {
  const initial = listUrls({ page: 1, size: 20, status: [] });
  const categories = categoryOptions().map((o) => ({ value: o.value, label: "　".repeat(o.depth) + o.label }));
  const maxSize = Math.max(1, Number(setting("spider", "max_size")) || 50);
  return renderAdmin(c, {
    title: "采集网址",
    active: "spider/url",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>每行输入一个网址，系统会抓取网页、找出其中的文档链接并自动下载；下载成功后在「采集文档」中发布。遵守目标网站的 robots.txt，同一网站的请求间隔见「采集设置」。</p>
        </div>
        <Island name="AdminSpiderUrls" component={AdminSpiderUrls} props={{
          initial: { total: initial.total, rows: initial.spider_url }, pageSize: 20, categories, exts: DOCUMENT_EXTS, maxSize, creditName: creditName(),
          statuses: options(URL_STATUS),
        }} />
      </section>
    ),
  });
});

spiderRoutes.get("/admin/spider/document", adminPage, (c) => {
  const q = c.req.query("spider_url_id");
  const urlId = q && /^\d{1,9}$/.test(q) ? Number(q) : undefined;
  const initial = listDocuments({ page: 1, size: 20, status: [], spider_url_id: urlId });
  return renderAdmin(c, {
    title: "采集文档",
    active: "spider/document",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>文件类型按内容识别；与文库已有文档内容相同的文件标记为重复，不会重复保存或发布。发布后的文档和上传的文档一样进入转换队列。</p>
        </div>
        <Island name="AdminSpiderDocuments" component={AdminSpiderDocuments} props={{
          initial: { total: initial.total, rows: initial.spider_document }, pageSize: 20, statuses: options(DOC), spiderUrlId: urlId ?? 0,
        }} />
      </section>
    ),
  });
});
