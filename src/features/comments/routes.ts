import { Hono } from "hono";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { withDateRange } from "#src/features/admin/crud/schema.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import { clientIp, type AppContext, type AppEnv } from "#src/http/context.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { adminCommentRoutes } from "./admin.tsx";
import { listComments } from "./list.ts";
import { isCommentModerator } from "./policy.ts";
import { checkBody, createBody, listQuery } from "./schema.ts";
import { checkComments, createComment, deleteComments } from "./service.ts";
import { COMMENT_STATUS } from "./status.ts";

/** Comments on documents and articles (API) and the admin screen /admin/comment. */
export const commentRoutes = new Hono<AppEnv>();
commentRoutes.route("/", adminCommentRoutes);

const me = (c: AppContext, why: string) => {
  const u = c.get("user");
  if (!u) throw unauthorized(why);
  return u;
};

commentRoutes.post("/api/v1/comment", validate("json", createBody), (c) => {
  const created = createComment(me(c, "请先登录后再发表评论"), c.req.valid("json"), clientIp(c));
  const message = created.status === COMMENT_STATUS.review ? "评论已提交，审核通过后将对所有人显示" : "评论成功";
  return c.json({ message, ...created });
});

commentRoutes.get("/api/v1/comment/list", validate("query", listQuery), (c) => {
  const u = c.get("user");
  const viewer = u ? { id: u.id, moderator: isCommentModerator(u) } : null;
  c.header("Cache-Control", "no-store");
  return c.json(listComments(withDateRange(c.req.valid("query")), viewer));
});

commentRoutes.put("/api/v1/comment/check", adminApi, validate("json", checkBody), (c) => {
  const b = c.req.valid("json");
  return c.json({ message: "操作成功", updated: checkComments(b.id, b.status) });
});

// Own comments for members, anyone's for moderators (policy.ts explains why this is not a permission).
commentRoutes.delete("/api/v1/comment", async (c) => {
  const u = me(c, "请先登录");
  return c.json({ message: "删除成功", deleted: deleteComments(await idsFrom(c), u, isCommentModerator(u)) });
});
