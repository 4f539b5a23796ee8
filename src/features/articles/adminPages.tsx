import { Hono } from "hono";
import AdminCategoryTree from "#islands/admin/AdminCategoryTree.tsx";
import AdminConfigForm from "#islands/admin/AdminConfigForm.tsx";
import AdminArticleList from "#islands/article/AdminArticleList.tsx";
import AdminArticleRecycle from "#islands/article/AdminArticleRecycle.tsx";
import type { ArticleRowData } from "#islands/article/AdminArticleParts.tsx";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { categoriesOfType } from "#src/features/categories/service.ts";
import { GROUP_BY_NAME } from "#src/features/settings/definitions.ts";
import { listConfig } from "#src/features/settings/service.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import { articleCategoryOptions } from "./categories.ts";
import { ARTICLE_STATUS_LABEL } from "./policy.ts";
import { listArticleRecycle } from "./review.ts";
import { listArticles } from "./service.ts";

/** The back office of articles (spec §2 /admin/article: category, list, recycle, set). */
export const articleAdminPages = new Hono<AppEnv>();
const PAGE_SIZE = 20;

articleAdminPages.get("/admin/article", adminPage, (c) => c.redirect("/admin/article/list", 302));

articleAdminPages.get("/admin/article/category", adminPage, (c) => renderAdmin(c, {
  title: "文章分类",
  active: "article/category",
  children: (
    <section className="adm-card">
      <div className="adm-intro">
        <p>文章分类可以无限层级。文章计入其所在分类及全部上级分类；有子分类或文章的分类不能删除，可以先禁用，禁用的分类及其下级不在前台显示。</p>
      </div>
      <Island name="AdminCategoryTree" component={AdminCategoryTree} props={{ type: 1, initial: categoriesOfType(1) }} />
    </section>
  ),
}));

articleAdminPages.get("/admin/article/list", adminPage, (c) => {
  const categories = articleCategoryOptions(true).map((o) => ({ value: o.value, label: "\u3000".repeat(o.depth) + o.label }));
  const initial = listArticles({ page: 1, size: PAGE_SIZE, status: [] }, "admin");
  const props = {
    initial: { total: initial.total, rows: initial.article as unknown as ArticleRowData[] },
    pageSize: PAGE_SIZE,
    filters: [
      { name: "status", label: "状态", options: Object.entries(ARTICLE_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label })) },
      { name: "category_id", label: "分类", options: categories },
      { name: "is_recommend", label: "推荐", options: [{ value: "1", label: "已推荐" }, { value: "0", label: "未推荐" }] },
    ],
    fields: [
      { name: "title", label: "标题", kind: "text" as const, required: true, maxLength: 100 },
      { name: "category_id", label: "分类", kind: "select" as const, options: [{ value: 0, label: "不分类" }, ...categories] },
      { name: "keywords", label: "关键词", kind: "text" as const, maxLength: 255, help: "多个关键词用逗号分隔" },
      { name: "description", label: "摘要", kind: "textarea" as const, maxLength: 500 },
      { name: "cover", label: "封面", kind: "image" as const, upload: "article", help: "只能使用本站上传的文章图片" },
      { name: "identifier", label: "文章标识", kind: "text" as const, required: true, maxLength: 64, help: "文章地址 /article/标识：小写字母、数字、- 和 _" },
    ],
  };
  return renderAdmin(c, {
    title: "文章列表",
    active: "article/list",
    children: (
      <section className="adm-card">
        <div className="adm-intro"><p>会员发布的文章在「文章设置」开启审核时先进入待审核，通过后公开；拒绝时填写的原因作者可以看到。删除的文章进入回收站，可恢复。</p></div>
        <Island name="AdminArticleList" component={AdminArticleList} props={props} />
      </section>
    ),
  });
});

articleAdminPages.get("/admin/article/recycle", adminPage, (c) => {
  const initial = listArticleRecycle({ page: 1, size: PAGE_SIZE });
  return renderAdmin(c, {
    title: "文章回收站",
    active: "article/recycle",
    children: (
      <section className="adm-card">
        <div className="adm-intro"><p>回收站中的文章对外不可见，也搜索不到。彻底删除后不可恢复。</p></div>
        <Island name="AdminArticleRecycle" component={AdminArticleRecycle} props={{ initial: { total: initial.total, rows: initial.article as unknown as ArticleRowData[] }, pageSize: PAGE_SIZE }} />
      </section>
    ),
  });
});

// Article settings, and the comment settings when the comments feature defines its group.
articleAdminPages.get("/admin/article/set", adminPage, (c) => renderAdmin(c, {
  title: "文章设置",
  active: "article/set",
  children: (
    <>
      {["article", "comment"].flatMap((name) => {
        const def = GROUP_BY_NAME.get(name);
        return def ? [
          <section key={name} className="adm-card">
            <h2 className="adm-card-title">{def.label}</h2>
            <Island name="AdminConfigForm" component={AdminConfigForm} props={{ category: name, items: listConfig([name]) }} />
          </section>,
        ] : [];
      })}
    </>
  ),
}));
