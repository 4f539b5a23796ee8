import { sqliteTable, integer, text, index, uniqueIndex, check } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { timestamps } from "./common.ts";

export const user = sqliteTable(
  "user",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    password: text("password").notNull(),
    realname: text("realname").notNull().default(""),
    email: text("email"),
    mobile: text("mobile"),
    avatar: text("avatar").notNull().default(""),
    address: text("address").notNull().default(""),
    signature: text("signature").notNull().default(""),
    identity: text("identity").notNull().default(""),
    // The root administrator holds every permission regardless of groups.
    is_root: integer("is_root", { mode: "boolean" }).notNull().default(false),
    status: integer("status").notNull().default(0),
    credit_count: integer("credit_count").notNull().default(0),
    doc_count: integer("doc_count").notNull().default(0),
    article_count: integer("article_count").notNull().default(0),
    favorite_count: integer("favorite_count").notNull().default(0),
    comment_count: integer("comment_count").notNull().default(0),
    follow_count: integer("follow_count").notNull().default(0),
    fans_count: integer("fans_count").notNull().default(0),
    login_at: integer("login_at"),
    last_login_ip: text("last_login_ip").notNull().default(""),
    register_ip: text("register_ip").notNull().default(""),
    /** VIP membership ends at this time (ms); NULL or past means not VIP (spec §3 is_vip) */
    vip_until: integer("vip_until"),
    ...timestamps,
  },
  (t) => [
    // The ledger never lets a balance go negative, even under concurrent writes.
    check("user_credit_non_negative", sql`${t.credit_count} >= 0`),
    uniqueIndex("user_username").on(t.username),
    uniqueIndex("user_email").on(t.email),
    uniqueIndex("user_mobile").on(t.mobile),
    index("user_created_at").on(t.created_at),
  ],
);

export const session = sqliteTable(
  "session",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
    // sha256 of the bearer/cookie token; the token itself is never stored.
    token_hash: text("token_hash").notNull(),
    expires_at: integer("expires_at").notNull(),
    ip: text("ip").notNull().default(""),
    user_agent: text("user_agent").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("session_token_hash").on(t.token_hash), index("session_user").on(t.user_id)],
);

// Daily sign-in: one row per user per Asia/Shanghai day (sign_at = YYYYMMDD).
export const sign = sqliteTable(
  "sign",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
    sign_at: integer("sign_at").notNull(),
    award: integer("award").notNull().default(0),
    ip: text("ip").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("sign_user_day").on(t.user_id, t.sign_at)],
);
