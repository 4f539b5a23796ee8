import { Hono } from "hono";
import AdminCommentList from "#islands/comment/AdminCommentList.tsx";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import { listComments } from "./list.ts";
import { isCommentModerator } from "./policy.ts";
import { COMMENT_STATUS } from "./status.ts";

/** 评论管理: every comment on documents and articles, waiting ones first. */
export const adminCommentRoutes = new Hono<AppEnv>();

const PAGE_SIZE = 20;

adminCommentRoutes.get("/admin/comment", adminPage, (c) => {
  const me = c.get("user")!;
  const initial = listComments({ page: 1, size: PAGE_SIZE, sort: "new", status: COMMENT_STATUS.review }, { id: me.id, moderator: isCommentModerator(me) });
  return renderAdmin(c, {
    title: "评论管理",
    active: "comment",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>用户在文档和文章下发表的评论。开启「评论设置 → 会员的评论需要审核后显示」后，新评论在此审核通过才会公开；删除评论会同时删除它的回复。</p>
        </div>
        <Island name="AdminCommentList" component={AdminCommentList} props={{ initial: { total: initial.total, rows: initial.comment }, pageSize: PAGE_SIZE, tab: String(COMMENT_STATUS.review) }} />
      </section>
    ),
  });
});
