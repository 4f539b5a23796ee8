import { Hono } from "hono";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { friendlink } from "#db/schema/site.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { crudRoutes, isAdmin } from "../crud/routes.ts";
import { boolQuery, pageQuery } from "../crud/schema.ts";
import { renderTablePage } from "../page.tsx";
import { friendlinkCreate, friendlinkUpdate } from "./schema.ts";
import { friendlinkService as svc } from "./service.ts";

export const friendlinkRoutes = new Hono<AppEnv>();
friendlinkRoutes.route("/", crudRoutes("friendlink", svc, { create: friendlinkCreate, update: friendlinkUpdate }));

const FIELDS = ["id", "title", "link", "description", "sort", "enable", "created_at", "updated_at"] as const;
const fieldList = z.union([z.string(), z.array(z.string())]).optional();
const listQuery = z.object({ ...pageQuery(10_000), enable: boolQuery, field: fieldList });

/**
 * Spec §7: filtered by `enable`, `field` (repeated or comma-separated, allow-listed) limits the
 * answer to those columns, e.g. id, title, link. Everyone may filter by enable; only those who
 * manage friend links ever see disabled ones, so for anyone else `enable=false` answers nothing.
 */
function listFriendlinks(admin: boolean, q: z.infer<typeof listQuery>, fields: string[]) {
  const where = admin
    ? [q.enable === undefined ? undefined : eq(friendlink.enable, q.enable)]
    : [eq(friendlink.enable, true), q.enable === false ? sql`0` : undefined];
  const { total, rows } = svc.list({ where, page: q.page, size: q.size, fields });
  return { total, friendlink: rows };
}

friendlinkRoutes.get("/api/v1/friendlink/list", validate("query", listQuery), (c) => {
  const asked = (c.req.queries("field") ?? []).flatMap((f) => f.split(",")).map((f) => f.trim()).filter(Boolean);
  const fields = asked.filter((f) => (FIELDS as readonly string[]).includes(f));
  return c.json(listFriendlinks(isAdmin(c, "friendlink"), c.req.valid("query"), fields));
});

friendlinkRoutes.get("/admin/friendlink", adminPage, (c) => {
  const initial = listFriendlinks(true, { page: 1, size: 20, enable: undefined, field: undefined }, []);
  return renderTablePage(c, {
    title: "友情链接",
    active: "friendlink",
    intro: <p>启用的友情链接显示在首页底部。</p>,
    table: {
      entity: "friendlink", listPath: "/friendlink/list", listKey: "friendlink", pageSize: 20, canCreate: true, toggle: "enable",
      initial: { total: initial.total, rows: initial.friendlink },
      columns: [
        { key: "id", label: "ID", width: 60 },
        { key: "title", label: "名称" },
        { key: "link", label: "链接地址", kind: "link" },
        { key: "description", label: "描述" },
        { key: "sort", label: "排序", width: 70 },
        { key: "enable", label: "启用", width: 70 },
        { key: "created_at", label: "创建时间", kind: "datetime" },
      ],
      fields: [
        { name: "title", label: "标题", kind: "text", required: true, maxLength: 64 },
        { name: "link", label: "链接地址", kind: "text", required: true, placeholder: "https://" },
        { name: "sort", label: "排序", kind: "number", help: "数字越小越靠前" },
        { name: "enable", label: "启用", kind: "switch" },
        { name: "description", label: "描述", kind: "textarea", maxLength: 255 },
      ],
      defaults: { title: "", link: "", sort: 0, enable: true, description: "" },
    },
  });
});
