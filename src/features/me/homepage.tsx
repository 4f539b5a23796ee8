import { Hono } from "hono";
import type { ReactNode } from "react";
import { Avatar } from "#islands/site/UserMenu.tsx";
import { findUserById } from "#src/features/auth/users.ts";
import { UserDocuments } from "#src/features/documents/views/UserDocuments.tsx";
import { UserArticles } from "#src/features/articles/views/UserArticles.tsx";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import { SECTIONS } from "#src/features/site/sections.ts";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { formatDate } from "#src/lib/format.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { AdSlot } from "#src/views/components/AdSlot.tsx";
import { renderPage } from "#src/views/render.tsx";
import { VipBadge } from "#src/features/vip/views/VipBadge.tsx";
import { listDynamic } from "./dynamic.ts";
import { countsOf, homepageOf } from "./service.ts";
import { Counts, DynamicList, EmptyState, GroupChips } from "./views/parts.tsx";

export const homepageRoutes = new Hono<AppEnv>();

const PAGE_SIZE = 20;
// The 文章 tab waits for the articles section (sections.ts); its page still answers.
const TABS = [
  { key: "", label: "动态" },
  { key: "document", label: "文档" },
  ...(SECTIONS.articles ? [{ key: "article", label: "文章" }] : []),
] as const;

type Homepage = ReturnType<typeof homepageOf>;

function Shell({ data: { user: u, groups }, mine, tab, children }: { data: Homepage; mine: boolean; tab: string; children: ReactNode }) {
  const id = u.id;
  return (
    <DefaultLayout>
      <div className="container user-home">
        <section className="card user-hero">
          <Avatar src={u.avatar} name={u.username} size={96} />
          <div className="user-hero-info">
            <h1 className="me-name"><span>{u.username}</span><VipBadge until={u.vip_until} size={20} /><GroupChips groups={groups} /></h1>
            <p className="me-signature">{u.signature || "这个人很懒，什么都没有留下"}</p>
            <p className="muted me-meta"><span>{`加入于 ${formatDate(u.created_at)}`}</span>{mine ? <a href="/me/profile">编辑资料 ›</a> : null}</p>
          </div>
          <Counts items={countsOf(u)} />
        </section>
        <nav className="user-tabs" aria-label="个人主页">
          {TABS.map((t) => (
            <a key={t.key} href={`/user/${id}${t.key ? `/${t.key}` : ""}`} className={t.key === tab ? "active" : undefined} aria-current={t.key === tab ? "page" : undefined}>{t.label}</a>
          ))}
        </nav>
        <AdSlot position="user_1" />
        <section className="card">{children}</section>
        <AdSlot position="user_2" />
      </div>
    </DefaultLayout>
  );
}

function render(c: AppContext, tab: string, body: (id: number, mine: boolean) => ReactNode) {
  const raw = c.req.param("id") ?? "";
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  const u = id > 0 ? findUserById(id) : undefined;
  if (!u) return renderNotFound(c);
  const data = homepageOf(u);
  const mine = c.get("user")?.id === id;
  const name = u.username;
  return renderPage(c, <Shell data={data} mine={mine} tab={tab}>{body(id, mine)}</Shell>, {
    meta: { title: `${name}的个人主页`, description: `${name}在本站分享的文档、文章与动态`, canonical: `/user/${id}${tab ? `/${tab}` : ""}` },
  });
}

homepageRoutes.get("/user/:id{[0-9]+}", (c) =>
  render(c, "", (id) => {
    const page = Math.max(1, Math.min(10_000, Number(c.req.query("page")) || 1));
    const { total, dynamic } = listDynamic(id, page, PAGE_SIZE);
    if (!dynamic.length) return <EmptyState icon="feed" title="暂无动态" />;
    const pages = Math.ceil(total / PAGE_SIZE);
    return (
      <>
        <DynamicList rows={dynamic} />
        {pages > 1 ? (
          <nav className="pager" aria-label="分页">
            {page > 1 ? <a className="btn btn-sm" href={`/user/${id}?page=${page - 1}`}>上一页</a> : null}
            <span className="muted">{page} / {pages}</span>
            {page < pages ? <a className="btn btn-sm" href={`/user/${id}?page=${page + 1}`}>下一页</a> : null}
          </nav>
        ) : null}
      </>
    );
  }));

homepageRoutes.get("/user/:id{[0-9]+}/document", (c) =>
  render(c, "document", (id, mine) => {
    const page = Math.max(1, Math.min(10_000, Number(c.req.query("page")) || 1));
    const empty = mine
      ? <EmptyState title="你还没有公开的文档" text="上传的文档转换完成（需要审核的在审核通过）后会展示在这里。" action={{ href: "/upload", label: "上传文档" }} />
      : <EmptyState title="TA 还没有上传文档" />;
    return <UserDocuments userId={id} page={page} empty={empty} />;
  }));

homepageRoutes.get("/user/:id{[0-9]+}/article", (c) =>
  render(c, "article", (id, mine) => {
    const page = Math.max(1, Math.min(10_000, Number(c.req.query("page")) || 1));
    const empty = mine
      ? <EmptyState title="你还没有发布文章" text="发布的文章（需要审核的在审核通过后）会展示在你的个人主页上。" action={{ href: "/post", label: "发布文章" }} />
      : <EmptyState title="TA 还没有发布文章" />;
    return <UserArticles userId={id} page={page} empty={empty} />;
  }));
