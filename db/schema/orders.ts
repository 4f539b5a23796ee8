import { sqliteTable, integer, text, index, uniqueIndex, check } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { timestamps } from "./common.ts";

// Commerce (spec §3/§4). Money is integer fen throughout; credits are integer credits.
// Orders keep user_id without a foreign key: a deleted account must not take its payments with it.

/**
 * order_type: 1 buy document, 2 buy VIP, 3 account recharge.
 * payment_type: 0 not chosen yet, then spec §3 (1 WeChat, 2 Alipay, 3 bank card, 4 cash, 5 credits,
 * 6 system recharge, 7 other, 8 card provider, 9 download code, 10 ad payment).
 * status: 1 pending, 2 paid, 3 closed.
 */
export const order = sqliteTable(
  "order",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** unique and not guessable: date prefix + random digits */
    order_no: text("order_no").notNull(),
    user_id: integer("user_id").notNull(),
    order_type: integer("order_type").notNull(),
    /** document id (type 1), VIP plan id (type 2), 0 for a recharge */
    product_id: integer("product_id").notNull().default(0),
    /** what was bought, as shown then (document title, plan title, "1000 积分") */
    product_title: text("product_title").notNull().default(""),
    quantity: integer("quantity").notNull().default(1),
    /** what the buyer pays, in fen (after the discount) */
    amount: integer("amount").notNull().default(0),
    /** taken off the list price, in fen */
    discount: integer("discount").notNull().default(0),
    /** credits added to the balance when paid (recharge) */
    credits: integer("credits").notNull().default(0),
    /** credits taken from the balance when paid with credits (payment_type 5) */
    credit_price: integer("credit_price").notNull().default(0),
    /** VIP months granted when paid (type 2) */
    vip_months: integer("vip_months").notNull().default(0),
    payment_type: integer("payment_type").notNull().default(0),
    status: integer("status").notNull().default(1),
    /** the gateway's own id of the payment (WeChat transaction_id, Alipay trade_no) */
    transaction_id: text("transaction_id").notNull().default(""),
    paid_at: integer("paid_at"),
    closed_at: integer("closed_at"),
    expire_at: integer("expire_at").notNull(),
    /** last time the gateway was asked about this order (throttles GET /order/status) */
    queried_at: integer("queried_at").notNull().default(0),
    ip: text("ip").notNull().default(""),
    remark: text("remark").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("order_no").on(t.order_no),
    index("order_user").on(t.user_id, t.created_at),
    index("order_status_expire").on(t.status, t.expire_at),
    index("order_product").on(t.order_type, t.product_id, t.user_id, t.status),
    index("order_created").on(t.created_at),
    check("order_amount_non_negative", sql`${t.amount} >= 0 AND ${t.discount} >= 0 AND ${t.credits} >= 0 AND ${t.credit_price} >= 0`),
  ],
);

/** VIP plans shown on /joinvip (monthly, quarterly, yearly out of the box). Prices in fen. */
export const vipPlan = sqliteTable("vip_plan", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  title: text("title").notNull(),
  months: integer("months").notNull(),
  price: integer("price").notNull(),
  original_price: integer("original_price").notNull().default(0),
  /** one benefit per line */
  benefits: text("benefits").notNull().default(""),
  enable: integer("enable", { mode: "boolean" }).notNull().default(true),
  sort: integer("sort").notNull().default(0),
  ...timestamps,
});

/**
 * Every payment event, for the admin: created at the gateway, notification (accepted or refused
 * and why), status query, close, paid. `detail` is JSON without secrets.
 */
export const paymentLog = sqliteTable(
  "payment_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    order_no: text("order_no").notNull().default(""),
    payment_type: integer("payment_type").notNull().default(0),
    event: text("event").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull().default(true),
    message: text("message").notNull().default(""),
    detail: text("detail").notNull().default(""),
    ip: text("ip").notNull().default(""),
    created_at: integer("created_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("payment_log_order").on(t.order_no, t.created_at), index("payment_log_created").on(t.created_at)],
);
