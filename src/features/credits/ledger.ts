import { eq, sql } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { creditLog } from "#db/schema/accounts.ts";
import { user } from "#db/schema/users.ts";
import { creditName } from "#src/features/settings/service.ts";
import { badRequest } from "#src/lib/errors.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The one way a balance changes: a conditional UPDATE (never below zero, no lost update under
 * concurrency) plus a ledger row with the balance after, in the caller's transaction or a new one.
 */
export function changeCredits(
  change: { userId: number; amount: number; kind: string; reason: string; refId?: number },
  tx?: Tx,
): { balance: number } {
  if (!Number.isInteger(change.amount)) throw badRequest("积分数量必须是整数");
  const run = (t: Tx) => {
    const row = t.update(user)
      .set({ credit_count: sql`${user.credit_count} + ${change.amount}` })
      .where(sql`${user.id} = ${change.userId} AND ${user.credit_count} + ${change.amount} >= 0`)
      .returning({ balance: user.credit_count })
      .get();
    if (!row) throw badRequest(`${creditName()}不足`);
    t.insert(creditLog).values({ user_id: change.userId, amount: change.amount, balance: row.balance, kind: change.kind, reason: change.reason, ref_id: change.refId ?? 0 }).run();
    return row;
  };
  return tx ? run(tx) : getDb().transaction(run);
}

export const creditBalance = (userId: number) =>
  getDb().select({ credit_count: user.credit_count }).from(user).where(eq(user.id, userId)).get()?.credit_count ?? 0;
