import { Hono, type Context } from "hono";
import type { ZodObject } from "zod";
import { adminApi } from "#src/http/adminOnly.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import type { AppEnv } from "#src/http/context.ts";
import { badRequest } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { idField, idQuery } from "./schema.ts";
import type { CrudService } from "./service.ts";

/** Whether the caller may see disabled rows in public lists: the one who may manage the entity. */
export function isAdmin(c: Context<AppEnv>, entity: string): boolean {
  const user = c.get("user");
  return !!user && (user.is_root || grantsOf(user.id).keys.has(`GET /api/v1/${entity}`));
}

/** DELETE takes `?id=1&id=2` or a JSON body `{ id: 1 }` / `{ id: [1, 2] }`. */
export async function idsFrom(c: Context<AppEnv>): Promise<number[]> {
  let raw: unknown[] = c.req.queries("id") ?? [];
  if (!raw.length && c.req.header("content-type")?.includes("json")) {
    const body = (await c.req.json().catch(() => null)) as { id?: unknown } | null;
    raw = body?.id === undefined ? [] : Array.isArray(body.id) ? body.id : [body.id];
  }
  if (!raw.length) throw badRequest("请选择要删除的记录");
  if (raw.length > 1000) throw badRequest("一次最多删除 1000 条记录");
  return [...new Set(raw.map((v) => {
    const r = idField.safeParse(v);
    if (!r.success) throw badRequest("ID 不正确");
    return r.data;
  }))];
}

/**
 * POST/PUT/DELETE/GET /api/v1/<name>, admin only. PUT takes `id` plus any subset of fields; the
 * merged row is re-checked, so a partial update cannot break a cross-field rule.
 */
export function crudRoutes(name: string, svc: CrudService, schema: { create: ZodObject; update: ZodObject }) {
  const path = `/api/v1/${name}`;
  const r = new Hono<AppEnv>();
  r.get(path, adminApi, validate("query", idQuery), (c) => c.json(svc.mustGet(c.req.valid("query").id)));
  r.post(path, adminApi, validate("json", schema.create), (c) => c.json(svc.create(c.req.valid("json") as Record<string, unknown>)));
  r.put(path, adminApi, validate("json", schema.update), (c) => {
    const { id, ...patch } = c.req.valid("json") as { id: number } & Record<string, unknown>;
    return c.json(svc.update(id, patch));
  });
  r.delete(path, adminApi, async (c) => {
    const rows = svc.remove(await idsFrom(c));
    return c.json({ message: "删除成功", deleted: rows.length });
  });
  return r;
}
