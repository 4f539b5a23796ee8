import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { getDb } from "#db/client.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { notFound } from "#src/lib/errors.ts";

export type Row = Record<string, unknown> & { id: number };
export type CrudTable = SQLiteTable & { id: SQLiteColumn; sort?: SQLiteColumn };

export const NOT_FOUND = "记录不存在";

export interface CrudOptions {
  table: CrudTable;
  /** values a new row gets for fields the request left out */
  defaults: Record<string, unknown>;
  /** rules that need the whole row or other rows (cycles, time windows); runs on the merged row */
  check?: (row: Record<string, unknown>, id: number | null) => void;
  /** runs inside the delete transaction, e.g. to re-parent children */
  beforeDelete?: (ids: number[]) => void;
}

export interface ListOptions {
  where?: (SQL | undefined)[];
  order?: SQL[];
  page?: number;
  size?: number;
  /** limit the answer to these columns (unknown names are ignored) */
  fields?: string[];
}

/** created_at (or another time column) inside an admin list's date range; undefined when unbounded. */
export const createdBetween = (col: SQLiteColumn, r: { start?: number; end?: number }): SQL | undefined =>
  and(r.start === undefined ? undefined : gte(col, r.start), r.end === undefined ? undefined : lte(col, r.end));

const READ_ONLY = new Set(["id", "created_at", "updated_at"]);

/**
 * One implementation of get/create/update/delete/list for the simple admin tables (navigation,
 * friend links, banners, ads, attachments). Every write bumps the content version so cached
 * public pages show it on the next request.
 */
export function crudService(o: CrudOptions) {
  const cols = getTableColumns(o.table) as Record<string, SQLiteColumn>;
  const t = o.table as any;
  const writable = (input: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(input).filter(([k, v]) => k in cols && !READ_ONLY.has(k) && v !== undefined));

  const get = (id: number) => getDb().select().from(t).where(eq(o.table.id, id)).get() as Row | undefined;

  function mustGet(id: number): Row {
    const row = get(id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  function create(input: Record<string, unknown>): Row {
    const row = { ...o.defaults, ...writable(input) };
    o.check?.(row, null);
    const created = getDb().insert(t).values(row).returning().get() as Row;
    bumpContentVersion();
    return created;
  }

  function update(id: number, patch: Record<string, unknown>): Row {
    const current = mustGet(id);
    const set = writable(patch);
    o.check?.({ ...current, ...set }, id);
    const row = getDb().update(t).set({ ...set, updated_at: Date.now() }).where(eq(o.table.id, id)).returning().get() as Row;
    bumpContentVersion();
    return row;
  }

  /** Deletes the rows that exist among `ids`; 404 when none does. Answers the deleted rows. */
  function remove(ids: number[]): Row[] {
    const found = ids.length ? (getDb().select().from(t).where(inArray(o.table.id, ids)).all() as Row[]) : [];
    if (!found.length) throw notFound(NOT_FOUND);
    const foundIds = found.map((r) => r.id);
    getDb().transaction(() => {
      o.beforeDelete?.(foundIds);
      getDb().delete(t).where(inArray(o.table.id, foundIds)).run();
    });
    bumpContentVersion();
    return found;
  }

  function list(opts: ListOptions = {}): { total: number; rows: Row[] } {
    const where = and(...(opts.where ?? []));
    const picked = opts.fields?.filter((f) => f in cols);
    const selection = picked?.length ? Object.fromEntries(picked.map((f) => [f, cols[f]!])) : undefined;
    const order = opts.order ?? (o.table.sort ? [asc(o.table.sort), asc(o.table.id)] : [desc(o.table.id)]);
    const size = opts.size ?? 20;
    const page = opts.page ?? 1;
    const rows = (selection ? getDb().select(selection) : getDb().select()).from(t).where(where).orderBy(...order).limit(size).offset((page - 1) * size).all() as Row[];
    const total = getDb().select({ n: count() }).from(t).where(where).get()!.n;
    return { total, rows };
  }

  return { cols, get, mustGet, create, update, remove, list };
}

export type CrudService = ReturnType<typeof crudService>;
