import { Hono } from "hono";
import { eq } from "drizzle-orm";
import ArticleEditor, { type ArticleEditorProps } from "#islands/article/ArticleEditor.tsx";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { findUserById } from "#src/features/auth/users.ts";
import { EmptyState } from "#src/features/categories/views/parts.tsx";
import { getSettings, setting } from "#src/features/settings/service.ts";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import { layoutData } from "#src/features/site/layoutData.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import { ArticleLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { articleCategoryOptions, chainPath } from "./categories.ts";
import { ARTICLE_SORTS, articlePage, hotArticles, relatedArticles, type ArticleSort } from "./listing.ts";
import { findManageable, isArticleAdmin, isVisible, mayManage, publishPolicy, publishRefusal, type ArticleRow } from "./policy.ts";
import { renderArticle } from "./render.ts";
import { articleJsonLd } from "./seo.ts";
import { ArticleListView } from "./views/ArticleListView.tsx";
import { ArticleView } from "./views/ArticleView.tsx";

/** The public article pages: the list /article, the reader /article/{identifier} and the editor /post. */
export const articlePages = new Hono<AppEnv>();

const PAGE_SIZE = 20;

articlePages.get("/article", (c) => {
  const rawCat = Number(c.req.query("category_id") ?? 0);
  const categoryId = Number.isSafeInteger(rawCat) && rawCat > 0 ? rawCat : 0;
  // Only categories visitors may see: a disabled or unknown one is a 404, not an empty list.
  const flat = (ns: typeof cats): typeof cats => ns.flatMap((n) => [n, ...flat(n.children)]);
  const cats = layoutData().articleCategories;
  const node = categoryId ? flat(cats).find((n) => n.id === categoryId) : undefined;
  if (categoryId && !node) return renderNotFound(c);
  const sortParam = c.req.query("sort") ?? "";
  const sort: ArticleSort = Object.hasOwn(ARTICLE_SORTS, sortParam) ? (sortParam as ArticleSort) : "recommend";
  const rawPage = Number(c.req.query("page") ?? 1);
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 100_000 ? rawPage : 1;
  const { total, items } = articlePage({ categoryId: categoryId || undefined, sort, page, size: PAGE_SIZE });
  if (page > 1 && !items.length) return renderNotFound(c);
  const chain = categoryId ? chainPath(categoryId) : [];
  const sitename = String(getSettings().system.sitename);
  const name = chain.length ? chain.map((x) => x.title).reverse().join(" - ") : "文章";
  return renderPage(
    c,
    <ArticleLayout path={c.req.path}>
      <ArticleListView categories={cats} chain={chain} sort={sort} page={page} pages={Math.ceil(total / PAGE_SIZE)} total={total} items={items} hot={hotArticles(10, categoryId || undefined)} mayPost />
    </ArticleLayout>,
    {
      meta: {
        title: `${name}${sort !== "recommend" ? ` - ${ARTICLE_SORTS[sort].label}` : ""}${page > 1 ? ` - 第${page}页` : ""}`,
        description: `${sitename}${chain.length ? `「${chain.at(-1)!.title}」分类下` : ""}的文章，共 ${total} 篇：经验分享、教程与见解。`.slice(0, 160),
        keywords: ["文章", ...chain.map((x) => x.title), ...(node?.children ?? cats).map((x) => x.title)].join(","),
        canonical: `/article${categoryId ? `?category_id=${categoryId}` : ""}${page > 1 ? `${categoryId ? "&" : "?"}page=${page}` : ""}`,
      },
      cache: true,
      share: true,
    },
  );
});

function authorOf(a: ArticleRow) {
  const u = findUserById(a.user_id);
  return u ? { id: u.id, username: u.username, avatar: u.avatar, signature: u.signature, article_count: u.article_count } : null;
}

articlePages.get("/article/:identifier{[A-Za-z0-9_-]{1,64}}", (c) => {
  const identifier = c.req.param("identifier").toLowerCase();
  const a = getDb().select().from(article).where(eq(article.identifier, identifier)).get();
  if (!a) return renderNotFound(c);
  const visible = isVisible(a);
  // A public article is one page for everyone (its per-reader parts are Personal slots, shared with
  // members); one that is not public is shown to its author and article administrators only.
  if (!visible) {
    const user = c.get("user");
    const admin = isArticleAdmin(user);
    if (!mayManage(user, a, admin) || (a.deleted_at !== null && !admin)) return renderNotFound(c);
  }
  const { html, toc, summary } = renderArticle(a);
  const crumbs = chainPath(a.category_id);
  const author = authorOf(a);
  const description = (a.description || a.title).slice(0, 200);
  return renderPage(
    c,
    <ArticleLayout path={c.req.path}>
      <ArticleView a={a} html={html} toc={toc} lead={a.description !== summary ? a.description : ""} crumbs={crumbs} author={author} related={visible ? relatedArticles(a) : []}
        commentSort={c.req.query("comment_sort")} />
      {visible ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: articleJsonLd(c, a, author?.username ?? "") }} /> : null}
    </ArticleLayout>,
    {
      meta: { title: a.title, description, keywords: a.keywords, canonical: `/article/${a.identifier}`, ogType: "article", image: a.cover || undefined, noindex: !visible },
      cache: visible,
      share: true,
    },
  );
});

function postPage(c: AppContext, body: React.ReactNode, title: string) {
  return renderPage(c, <ArticleLayout path={c.req.path}><div className="container art-post">{body}</div></ArticleLayout>, { meta: { title, noindex: true } });
}

articlePages.get("/post", async (c) => {
  const user = c.get("user");
  if (!user) return c.redirect(`/login?redirect=${encodeURIComponent(c.req.path + (new URL(c.req.url).search || ""))}`, 302);
  const refusal = publishRefusal(user);
  const admin = isArticleAdmin(user);
  const rawId = c.req.query("id");
  let initial: ArticleEditorProps["initial"] = null;
  if (rawId !== undefined) {
    const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : 0;
    let a: ArticleRow | undefined;
    try {
      [a] = id ? findManageable([id], user, admin) : [];
    } catch {
      a = undefined;
    }
    if (!a) return renderNotFound(c);
    initial = {
      id: a.id, title: a.title, content: a.content, category_id: a.category_id, keywords: a.keywords, description: a.description, cover: a.cover,
      identifier: a.identifier, status: a.status, reject_reason: a.reject_reason,
    };
  } else if (refusal) {
    return postPage(c, <section className="card"><EmptyState title="暂时不能发布文章" text={refusal} action={{ href: "/article", label: "去看看文章" }} /></section>, "发布文章");
  }
  const props: ArticleEditorProps = {
    initial, categories: articleCategoryOptions(), needsReview: publishPolicy(user).needsReview, admin,
    maxLength: Math.max(1000, Math.floor(Number(setting("article", "max_content_length"))) || 50_000),
  };
  const title = initial ? "编辑文章" : "发布文章";
  return postPage(c, <><h1 className="art-post-title">{title}</h1><Island name="ArticleEditor" component={ArticleEditor} props={props} /></>, title);
});
