import { sqliteTable, integer, text, index, uniqueIndex, primaryKey, check } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { timestamps } from "./common.ts";
import { article } from "./articles.ts";
import { user } from "./users.ts";

// status (spec §4): 0 pending, 1 converting, 2 converted, 3 failed, 4 disabled, 5 reconvert, 6 pending review, 7 review rejected
export const document = sqliteTable("document", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  uuid: text("uuid").notNull(),
  title: text("title").notNull(),
  keywords: text("keywords").notNull().default(""),
  description: text("description").notNull().default(""),
  user_id: integer("user_id").notNull().references(() => user.id),
  /** the leaf category; document_category also holds its ancestors for counting and filtering */
  category_id: integer("category_id").notNull().default(0),
  /** the uploaded original (attachment type 2) and its MD5, shared by same-file documents */
  attachment_id: integer("attachment_id").notNull().default(0),
  hash: text("hash").notNull(),
  ext: text("ext").notNull(),
  size: integer("size").notNull().default(0),
  pages: integer("pages").notNull().default(0),
  /** how many pages were rendered as images (the preview limit) */
  preview: integer("preview").notNull().default(0),
  /**
   * how many pages have images on disk (≥ preview): pages past the preview are rendered later, for
   * readers entitled to the whole document (owner, buyers, admins); a conversion resets it to preview
   */
  rendered_pages: integer("rendered_pages").notNull().default(0),
  width: integer("width").notNull().default(0),
  height: integer("height").notNull().default(0),
  cover: text("cover").notNull().default(""),
  language: text("language").notNull().default("zh"),
  price: integer("price").notNull().default(0),
  status: integer("status").notNull().default(0),
  convert_error: text("convert_error").notNull().default(""),
  is_recommend: integer("is_recommend", { mode: "boolean" }).notNull().default(false),
  recommend_at: integer("recommend_at"),
  view_count: integer("view_count").notNull().default(0),
  download_count: integer("download_count").notNull().default(0),
  favorite_count: integer("favorite_count").notNull().default(0),
  comment_count: integer("comment_count").notNull().default(0),
  /** average rating × 100 (e.g. 425 = 4.25) and how many ratings */
  score: integer("score").notNull().default(0),
  score_count: integer("score_count").notNull().default(0),
  /** recycle bin: set when deleted, cleared on restore */
  deleted_at: integer("deleted_at"),
  deleted_user_id: integer("deleted_user_id").notNull().default(0),
  ...timestamps,
}, (t) => [
  uniqueIndex("document_uuid").on(t.uuid),
  index("document_user").on(t.user_id, t.deleted_at),
  index("document_status").on(t.status, t.deleted_at, t.created_at),
  index("document_hash").on(t.hash),
  index("document_recommend").on(t.is_recommend, t.recommend_at),
  index("document_category_leaf").on(t.category_id),
  // Category and home lists sort visible documents by these; without them a big category sorts in memory.
  index("document_visible_downloads").on(t.status, t.deleted_at, t.download_count),
  index("document_visible_views").on(t.status, t.deleted_at, t.view_count),
  index("document_visible_score").on(t.status, t.deleted_at, t.score),
]);

export const documentCategory = sqliteTable("document_category", {
  document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
  category_id: integer("category_id").notNull(),
}, (t) => [primaryKey({ columns: [t.document_id, t.category_id] }), index("document_category_category").on(t.category_id)]);

/** Text of every page, kept per page for search and the AI (page numbers start at 1). */
export const documentPage = sqliteTable("document_page", {
  document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
  page: integer("page").notNull(),
  text: text("text").notNull().default(""),
}, (t) => [primaryKey({ columns: [t.document_id, t.page] })]);

export const documentScore = sqliteTable("document_score", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  score: integer("score").notNull(),
  ...timestamps,
}, (t) => [uniqueIndex("document_score_user").on(t.document_id, t.user_id)]);

export const favorite = sqliteTable("favorite", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
  ...timestamps,
}, (t) => [uniqueIndex("favorite_user_document").on(t.user_id, t.document_id), index("favorite_document").on(t.document_id)]);

// reason (spec §3): 1 spam ads, 2 obscene, 3 fake prize, 4 sensitive info, 5 personal attack, 6 harassment.
// status uses the generic statuses of spec §4 (features/reader/reasons.ts REPORT_STATUS):
// 2 under review = pending (new reports), 0 normal = handled (the report was valid), 4 ignored.
// A report names a document or an article, never both (report_target); NULLs keep the two
// unique indexes apart, so each user reports each item once.
export const report = sqliteTable("report", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  document_id: integer("document_id").references(() => document.id, { onDelete: "cascade" }),
  article_id: integer("article_id").references(() => article.id, { onDelete: "cascade" }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  reason: integer("reason").notNull(),
  remark: text("remark").notNull().default(""),
  status: integer("status").notNull().default(2),
  ...timestamps,
}, (t) => [
  check("report_target", sql`(document_id IS NULL) <> (article_id IS NULL)`),
  uniqueIndex("report_user_document").on(t.user_id, t.document_id),
  uniqueIndex("report_user_article").on(t.user_id, t.article_id),
  index("report_status").on(t.status),
]);

export const download = sqliteTable("download", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().default(0),
  document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
  ip: text("ip").notNull().default(""),
  /** credits paid for this download (0 when free or repeated within the free period) */
  price: integer("price").notNull().default(0),
  ...timestamps,
}, (t) => [index("download_user").on(t.user_id, t.created_at), index("download_document").on(t.document_id), index("download_ip").on(t.ip, t.created_at)]);

/** Files refused at upload by their MD5 (e.g. removed for copyright). */
export const bannedHash = sqliteTable("banned_hash", {
  hash: text("hash").primaryKey(),
  reason: text("reason").notNull().default(""),
  ...timestamps,
});

/** Document languages offered at upload (admin /admin/document/language). */
export const language = sqliteTable("language", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  code: text("code").notNull(),
  name: text("name").notNull(),
  enable: integer("enable", { mode: "boolean" }).notNull().default(true),
  sort: integer("sort").notNull().default(0),
  ...timestamps,
}, (t) => [uniqueIndex("language_code").on(t.code)]);
