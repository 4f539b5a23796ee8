import { Hono } from "hono";
import { receiveImage, storeSpooledImage } from "#src/features/admin/attachment/storage.ts";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { adminApi, adminPage } from "#src/http/adminOnly.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminCategoryTree from "#islands/admin/AdminCategoryTree.tsx";
import { categoriesOfType } from "./service.ts";

export const categoryAdminRoutes = new Hono<AppEnv>();

// Cover and icon images (attachment type 6): multipart `file`, streamed to a temp file like every
// admin image (the declared size checked first, a chunked body cut off past 5 MB).
categoryAdminRoutes.post("/api/v1/upload/category", adminApi, async (c) => {
  const file = await receiveImage(c.req.raw);
  try {
    const row = await storeSpooledImage(file, "category", { userId: c.get("user")!.id, ip: clientIp(c) });
    return c.json({ message: "上传成功", ...row });
  } finally {
    file.cleanup();
  }
});

categoryAdminRoutes.get("/admin/document/category", adminPage, (c) => {
  return renderAdmin(c, {
    title: "文档分类",
    active: "document/category",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>分类可以无限层级。文档会同时计入其所在分类及全部上级分类；有子分类或文档的分类不能删除，可以先禁用。启用「隐藏没有文档的分类」（显示设置）后，前台不显示文档数为 0 的分类。</p>
        </div>
        <Island name="AdminCategoryTree" component={AdminCategoryTree} props={{ type: 0, initial: categoriesOfType(0) }} />
      </section>
    ),
  });
});
