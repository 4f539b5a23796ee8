import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";
import { user } from "./users.ts";

// Groups (spec §6): flags decide what members may do; is_default marks the group new users join.
export const group = sqliteTable("group", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  title: text("title").notNull(),
  color: text("color").notNull().default(""),
  description: text("description").notNull().default(""),
  sort: integer("sort").notNull().default(0),
  is_default: integer("is_default", { mode: "boolean" }).notNull().default(false),
  is_display: integer("is_display", { mode: "boolean" }).notNull().default(false),
  enable_upload: integer("enable_upload", { mode: "boolean" }).notNull().default(false),
  enable_document_review: integer("enable_document_review", { mode: "boolean" }).notNull().default(true),
  enable_comment: integer("enable_comment", { mode: "boolean" }).notNull().default(false),
  enable_comment_approval: integer("enable_comment_approval", { mode: "boolean" }).notNull().default(true),
  enable_article: integer("enable_article", { mode: "boolean" }).notNull().default(false),
  enable_article_approval: integer("enable_article_approval", { mode: "boolean" }).notNull().default(true),
  /** AI chat limits of the group's members (-1 unlimited); a member of several groups gets the largest */
  ai_questions_per_day: integer("ai_questions_per_day").notNull().default(50),
  ai_tokens_per_month: integer("ai_tokens_per_month").notNull().default(1000000),
  ...timestamps,
}, (t) => [uniqueIndex("group_title").on(t.title)]);

export const userGroup = sqliteTable("user_group", {
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  group_id: integer("group_id").notNull().references(() => group.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.user_id, t.group_id] }), index("user_group_group").on(t.group_id)]);

// One row per registered API route (method + path), synced from the app's routes at start.
// `page` is the admin page the permission opens (its page group); allowPages derive from it.
export const permission = sqliteTable("permission", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  method: text("method").notNull(),
  path: text("path").notNull(),
  title: text("title").notNull().default(""),
  description: text("description").notNull().default(""),
  category: text("category").notNull().default(""),
  page: text("page").notNull().default(""),
  ...timestamps,
}, (t) => [uniqueIndex("permission_method_path").on(t.method, t.path)]);

export const groupPermission = sqliteTable("group_permission", {
  group_id: integer("group_id").notNull().references(() => group.id, { onDelete: "cascade" }),
  permission_id: integer("permission_id").notNull().references(() => permission.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.group_id, t.permission_id] })]);

// type: 1 disable account, 2 ban comment, 3 ban upload, 4 ban download, 5 ban favourite, 6 ban article publishing
export const punishment = sqliteTable("punishment", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  type: integer("type").notNull(),
  enable: integer("enable", { mode: "boolean" }).notNull().default(true),
  operators: text("operators").notNull().default(""),
  reason: text("reason").notNull().default(""),
  remark: text("remark").notNull().default(""),
  start_time: integer("start_time"),
  end_time: integer("end_time"),
  ...timestamps,
}, (t) => [index("punishment_user_type").on(t.user_id, t.type, t.enable)]);

// E-mail and SMS codes. type: 0 register, 1 login, 2 find password, 3 bind/verify.
// status (spec §4 SMS): 0 sending, 1 sent, 2 failed. The code itself is stored hashed.
export const verifyCode = sqliteTable("verify_code", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  channel: text("channel", { enum: ["email", "mobile"] }).notNull(),
  target: text("target").notNull(),
  type: integer("type").notNull(),
  code_hash: text("code_hash").notNull(),
  status: integer("status").notNull().default(0),
  provider: text("provider").notNull().default(""),
  error: text("error").notNull().default(""),
  ip: text("ip").notNull().default(""),
  attempts: integer("attempts").notNull().default(0),
  expires_at: integer("expires_at").notNull(),
  used_at: integer("used_at"),
  ...timestamps,
}, (t) => [index("verify_code_target").on(t.channel, t.target, t.type, t.created_at), index("verify_code_ip").on(t.ip, t.created_at)]);

// Single-use, expiring password-reset tokens (step two of find-password by e-mail); stored hashed.
export const passwordReset = sqliteTable("password_reset", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  token_hash: text("token_hash").notNull(),
  expires_at: integer("expires_at").notNull(),
  used_at: integer("used_at"),
  ...timestamps,
}, (t) => [uniqueIndex("password_reset_token").on(t.token_hash)]);

// Third-party identities bound to users; type: github, gitee, qq, wechat, google, custom.
export const userOauth = sqliteTable("user_oauth", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  type: text("type").notNull(),
  openid: text("openid").notNull(),
  unionid: text("unionid").notNull().default(""),
  name: text("name").notNull().default(""),
  avatar: text("avatar").notNull().default(""),
  email: text("email").notNull().default(""),
  ...timestamps,
}, (t) => [uniqueIndex("user_oauth_type_openid").on(t.type, t.openid), uniqueIndex("user_oauth_user_type").on(t.user_id, t.type)]);

// The credit ledger: every balance change with its reason; balance is the user's balance after it.
export const creditLog = sqliteTable("credit_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  amount: integer("amount").notNull(),
  balance: integer("balance").notNull(),
  kind: text("kind").notNull(),
  reason: text("reason").notNull().default(""),
  ref_id: integer("ref_id").notNull().default(0),
  ...timestamps,
}, (t) => [index("credit_log_user").on(t.user_id, t.created_at), index("credit_log_kind").on(t.kind, t.ref_id)]);

// Activity feed for /user/{id} and GET /user/dynamic.
export const dynamic = sqliteTable("dynamic", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  type: integer("type").notNull().default(0),
  content: text("content").notNull(),
  ...timestamps,
}, (t) => [index("dynamic_user").on(t.user_id, t.created_at)]);
