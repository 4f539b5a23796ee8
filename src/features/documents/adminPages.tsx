import { Hono } from "hono";
import { asc } from "drizzle-orm";
import AdminDocumentList from "#islands/admin/AdminDocumentList.tsx";
import AdminDocumentRecycle from "#islands/admin/AdminDocumentRecycle.tsx";
import type { DocRow } from "#islands/admin/AdminDocumentParts.tsx";
import { getDb } from "#db/client.ts";
import { document, language } from "#db/schema/documents.ts";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { creditName } from "#src/features/settings/service.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import { categoryOptions } from "./categories.ts";
import { listRecycle } from "./recycle.ts";
import { MAX_PRICE } from "./schema.ts";
import { listDocuments } from "./service.ts";
import { DOC_STATUS_LABEL } from "./status.ts";
import { allowedExts } from "./storage.ts";

export const documentAdminPages = new Hono<AppEnv>();
const PAGE_SIZE = 20;

/** Types to filter by: the allowed ones plus any already stored (settings may have changed since). */
function extOptions() {
  const stored = getDb().selectDistinct({ ext: document.ext }).from(document).all().map((r) => r.ext);
  return [...new Set([...allowedExts(), ...stored])].sort().map((e) => ({ value: e, label: e.toUpperCase() }));
}

documentAdminPages.get("/admin/document/list", adminPage, (c) => {
  const categories = categoryOptions(true).map((o) => ({ value: o.value, label: "　".repeat(o.depth) + o.label }));
  const languages = getDb().select({ value: language.code, label: language.name }).from(language).orderBy(asc(language.sort), asc(language.id)).all();
  const initial = listDocuments({ page: 1, size: PAGE_SIZE, status: [] }, "admin");
  const credit = creditName();
  const props = {
    initial: { total: initial.total, rows: initial.document as unknown as DocRow[] },
    pageSize: PAGE_SIZE,
    creditName: credit,
    filters: [
      { name: "status", label: "状态", options: Object.entries(DOC_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label })) },
      { name: "category_id", label: "分类", options: categories },
      { name: "ext", label: "类型", options: extOptions() },
    ],
    fields: [
      { name: "title", label: "标题", kind: "text" as const, required: true, maxLength: 255 },
      { name: "category_id", label: "分类", kind: "select" as const, required: true, options: categories },
      { name: "price", label: `价格（${credit}）`, kind: "number" as const, help: `0 表示免费，最多 ${MAX_PRICE}` },
      { name: "language", label: "语言", kind: "select" as const, required: true, options: languages },
      { name: "keywords", label: "关键词", kind: "text" as const, maxLength: 255, help: "多个关键词用逗号分隔" },
      { name: "description", label: "简介", kind: "textarea" as const, maxLength: 1000 },
    ],
  };
  return renderAdmin(c, {
    title: "文档列表",
    active: "document/list",
    children: (
      <section className="adm-card">
        <div className="adm-intro"><p>待审核的文档同样会被转换；审核通过后立即上线。删除的文档进入回收站，可恢复。</p></div>
        <Island name="AdminDocumentList" component={AdminDocumentList} props={props} />
      </section>
    ),
  });
});

documentAdminPages.get("/admin/document/recycle", adminPage, (c) => {
  const initial = listRecycle({ page: 1, size: PAGE_SIZE });
  return renderAdmin(c, {
    title: "回收站",
    active: "document/recycle",
    children: (
      <section className="adm-card">
        <div className="adm-intro"><p>回收站中的文档对外不可见。彻底删除后不可恢复，可选择禁止再次上传相同的文件。</p></div>
        <Island name="AdminDocumentRecycle" component={AdminDocumentRecycle} props={{ initial: { total: initial.total, rows: initial.document as unknown as DocRow[] }, pageSize: PAGE_SIZE }} />
      </section>
    ),
  });
});
