import { count, desc, eq } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { dynamic } from "#db/schema/accounts.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Activity kinds written to the feed (register is written by createAccount as 1). */
export const DYNAMIC_TYPES = { register: 1, sign: 2, avatar: 3 } as const;

/** One line in a user's public activity feed, in the caller's transaction when given. */
export function recordDynamic(userId: number, type: number, content: string, tx?: Tx) {
  (tx ?? getDb()).insert(dynamic).values({ user_id: userId, type, content: content.slice(0, 500) }).run();
}

export function listDynamic(userId: number, page: number, size: number) {
  const db = getDb();
  const total = db.select({ n: count() }).from(dynamic).where(eq(dynamic.user_id, userId)).get()!.n;
  const rows = db.select({ id: dynamic.id, user_id: dynamic.user_id, type: dynamic.type, content: dynamic.content, created_at: dynamic.created_at })
    .from(dynamic).where(eq(dynamic.user_id, userId)).orderBy(desc(dynamic.created_at), desc(dynamic.id))
    .limit(size).offset((page - 1) * size).all();
  return { total, dynamic: rows };
}
export type DynamicRow = ReturnType<typeof listDynamic>["dynamic"][number];
