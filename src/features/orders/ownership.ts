import { and, eq } from "drizzle-orm";
import { getDb, type Db } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { ORDER_STATUS, ORDER_TYPE } from "./types.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Whether the user bought this document (a paid order of type 1, whatever the payment method,
 * credit downloads included): bought documents are theirs for good — full preview, free download.
 */
export function hasBought(userId: number | null | undefined, documentId: number, tx?: Tx): boolean {
  if (!userId) return false;
  return !!(tx ?? getDb()).select({ id: order.id }).from(order)
    .where(and(eq(order.order_type, ORDER_TYPE.document), eq(order.product_id, documentId), eq(order.user_id, userId), eq(order.status, ORDER_STATUS.paid)))
    .limit(1).get();
}

/** The same rule as SQL for queries over many documents: `doc` is the document id column, `user` the user id. */
export const boughtSql = (doc: string, user: string) =>
  `EXISTS (SELECT 1 FROM "order" o WHERE o.order_type = ${ORDER_TYPE.document} AND o.product_id = ${doc} AND o.user_id = ${user} AND o.status = ${ORDER_STATUS.paid})`;
