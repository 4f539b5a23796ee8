import { and, asc, count, eq, getTableColumns, inArray, ne, or, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { group, userGroup } from "#db/schema/accounts.ts";
import { ADMIN_GROUP_ID, groupPermissionIds, invalidatePermissions, setGroupPermissions } from "#src/features/permissions/service.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { badRequest, conflict, notFound } from "#src/lib/errors.ts";

export type GroupRow = typeof group.$inferSelect;
export type GroupInput = Partial<Omit<GroupRow, "id" | "created_at" | "updated_at">>;

export const GROUP_NOT_FOUND = "用户组不存在";

export function getGroup(id: number): GroupRow {
  const row = getDb().select().from(group).where(eq(group.id, id)).get();
  if (!row) throw notFound(GROUP_NOT_FOUND);
  return row;
}

function assertTitleFree(title: string | undefined, exceptId = 0) {
  if (!title) return;
  const taken = getDb().select({ id: group.id }).from(group).where(and(eq(group.title, title), ne(group.id, exceptId))).get();
  if (taken) throw conflict("分组名称已存在");
}

// A racing insert of the same title passes the check above; the unique index still says no.
function unique<T>(write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (String((err as { code?: string }).code ?? err).includes("SQLITE_CONSTRAINT_UNIQUE")) throw conflict("分组名称已存在");
    throw err;
  }
}

/** Exactly one default group (new users join it), and never the administrators' group. */
function applyDefault(id: number, wanted: boolean | undefined, current: GroupRow | null) {
  if (wanted === undefined) return;
  if (wanted && id === ADMIN_GROUP_ID) throw badRequest("超级管理员分组不能设为默认分组");
  if (wanted) getDb().update(group).set({ is_default: false }).where(ne(group.id, id)).run();
  else if (current?.is_default) throw badRequest("必须保留一个默认分组，请把其他分组设为默认");
}

export function createGroup(input: GroupInput & { title: string }): GroupRow {
  assertTitleFree(input.title);
  const row = unique(() => getDb().transaction(() => {
    const created = getDb().insert(group).values({ ...input, is_default: false }).returning().get();
    if (input.is_default) {
      applyDefault(created.id, true, null);
      return getDb().update(group).set({ is_default: true }).where(eq(group.id, created.id)).returning().get()!;
    }
    return created;
  }));
  bumpContentVersion();
  return row;
}

export function updateGroup(id: number, patch: GroupInput): GroupRow {
  const current = getGroup(id);
  assertTitleFree(patch.title, id);
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const row = unique(() => getDb().transaction(() => {
    applyDefault(id, patch.is_default, current);
    return getDb().update(group).set({ ...set, updated_at: Date.now() }).where(eq(group.id, id)).returning().get()!;
  }));
  bumpContentVersion();
  return row;
}

export function deleteGroups(ids: number[]): number {
  const rows = ids.length ? getDb().select().from(group).where(inArray(group.id, ids)).all() : [];
  if (!rows.length) throw notFound(GROUP_NOT_FOUND);
  if (rows.some((r) => r.id === ADMIN_GROUP_ID)) throw badRequest("不能删除超级管理员分组");
  const def = rows.find((r) => r.is_default);
  if (def) throw badRequest(`「${def.title}」是默认分组，请先把其他分组设为默认再删除`);
  const used = getDb().select({ id: userGroup.group_id }).from(userGroup).where(inArray(userGroup.group_id, rows.map((r) => r.id))).get();
  if (used) throw badRequest(`该分组下还有用户，请先移出用户再删除（${rows.find((r) => r.id === used.id)!.title}）`);
  getDb().delete(group).where(inArray(group.id, rows.map((r) => r.id))).run();
  invalidatePermissions();
  bumpContentVersion();
  return rows.length;
}

const PUBLIC = { id: group.id, title: group.title, color: group.color, description: group.description, sort: group.sort };

/**
 * Admins see every group with its member count; everyone else sees the groups marked for display
 * (is_display), public fields only.
 */
export function listGroups(q: { wd?: string; page: number; size: number }, admin: boolean) {
  const db = getDb();
  const where = and(
    admin ? undefined : eq(group.is_display, true),
    q.wd ? or(sql`instr(lower(${group.title}), lower(${q.wd})) > 0`, sql`instr(lower(${group.description}), lower(${q.wd})) > 0`) : undefined,
  );
  const total = db.select({ n: count() }).from(group).where(where).get()!.n;
  const page = (q.page - 1) * q.size;
  if (!admin) return { total, group: db.select(PUBLIC).from(group).where(where).orderBy(asc(group.sort), asc(group.id)).limit(q.size).offset(page).all() };
  const rows = db.select({ ...getTableColumns(group), user_count: sql<number>`(SELECT count(*) FROM user_group ug WHERE ug.group_id = ${group.id})` })
    .from(group).where(where).orderBy(asc(group.sort), asc(group.id)).limit(q.size).offset(page).all();
  return { total, group: rows };
}

/** The groups a user belongs to (GET /user/group), in display order. */
export const groupsOfUser = (userId: number) =>
  getDb().select(PUBLIC).from(userGroup).innerJoin(group, eq(group.id, userGroup.group_id)).where(eq(userGroup.user_id, userId)).orderBy(asc(group.sort), asc(group.id)).all();

export function permissionsOfGroup(id: number) {
  getGroup(id);
  return { id, permission_id: groupPermissionIds(id) };
}

export function setPermissionsOfGroup(id: number, ids: number[]) {
  getGroup(id);
  // Group 1 is re-granted every permission at each start; editing it would only mislead.
  if (id === ADMIN_GROUP_ID) throw badRequest("超级管理员分组拥有全部权限，无需设置");
  setGroupPermissions(id, [...new Set(ids)]);
  return permissionsOfGroup(id);
}

export const allGroupOptions = () => getDb().select({ value: group.id, label: group.title }).from(group).orderBy(asc(group.sort), asc(group.id)).all();
