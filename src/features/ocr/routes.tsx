import { Hono } from "hono";
import AdminOcrList from "#islands/ocr/AdminOcrList.tsx";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { Island } from "#src/views/Island.tsx";
import { OCR_STATUS_LABEL } from "./enqueue.ts";
import { documentIdsBody, listQuery, pagesQuery } from "./schema.ts";
import { listOcrDocuments, ocrPagesOf, redoDocuments, retryDocuments, scanLibrary } from "./service.ts";
import { ocrSettings } from "./config.ts";
import { ENGINE_LABEL } from "./settings.ts";

// OCR admin API (permission category "ocr", page /admin/document/ocr) and its screen 文档管理 → OCR 识别.
export const ocrRoutes = new Hono<AppEnv>();

ocrRoutes.get("/api/v1/ocr/list", adminApi, validate("query", listQuery), (c) => c.json(listOcrDocuments(c.req.valid("query"))));
ocrRoutes.get("/api/v1/ocr/pages", adminApi, validate("query", pagesQuery), (c) => c.json(ocrPagesOf(c.req.valid("query").document_id)));
ocrRoutes.post("/api/v1/ocr/retry", adminApi, validate("json", documentIdsBody), (c) => c.json(retryDocuments(c.req.valid("json").document_id)));
ocrRoutes.post("/api/v1/ocr/redo", adminApi, validate("json", documentIdsBody), (c) => c.json(redoDocuments(c.req.valid("json").document_id)));
ocrRoutes.post("/api/v1/ocr/scan", adminApi, (c) => c.json(scanLibrary()));

ocrRoutes.get("/admin/document/ocr", adminPage, (c) => {
  const initial = listOcrDocuments({ page: 1, size: 20, status: [] });
  const s = ocrSettings();
  return renderAdmin(c, {
    title: "OCR 识别",
    active: "document/ocr",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>
            文档转换后，没有文字层（可见字符少于 {s.minChars} 个）的页面会用 {ENGINE_LABEL[s.engine]} 识别文字，识别结果进入全文搜索、阅读页文字与 AI 检索；有文字层的页面不会识别。
            {s.enable ? "" : "OCR 目前已关闭，新转换的文档不会自动识别，这里仍可手动重新识别。"}
            引擎、语言、每篇最多页数与超时在 <a href="/admin/config/ocr">系统设置 → OCR 设置</a> 中修改；开启 OCR 之前转换的文档可用「识别已有文档」补做。
          </p>
        </div>
        <Island name="AdminOcrList" component={AdminOcrList} props={{
          initial: { total: initial.total, rows: initial.ocr_document }, pageSize: 20,
          statuses: Object.entries(OCR_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label })),
        }} />
      </section>
    ),
  });
});
