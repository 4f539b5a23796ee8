import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";
import { user } from "./users.ts";

// status (spec §4 article review): 0 pending, 1 approved, 2 rejected (reject_reason says why).
export const article = sqliteTable("article", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** the public name in /article/{identifier}: URL-safe, unique, never derived from the title */
  identifier: text("identifier").notNull(),
  title: text("title").notNull(),
  keywords: text("keywords").notNull().default(""),
  description: text("description").notNull().default(""),
  /** markdown as written; the page renders and sanitises it (cached per `version`) */
  content: text("content").notNull().default(""),
  /** an article image (attachment type 3) path or "" */
  cover: text("cover").notNull().default(""),
  user_id: integer("user_id").notNull().references(() => user.id),
  /**
   * The leaf article category (type 1) or 0. Only the leaf is stored: the chain above it is read
   * from the tree, so moving a category never leaves articles filed under its old ancestors.
   */
  category_id: integer("category_id").notNull().default(0),
  status: integer("status").notNull().default(0),
  reject_reason: text("reject_reason").notNull().default(""),
  is_recommend: integer("is_recommend", { mode: "boolean" }).notNull().default(false),
  recommend_at: integer("recommend_at"),
  view_count: integer("view_count").notNull().default(0),
  favorite_count: integer("favorite_count").notNull().default(0),
  comment_count: integer("comment_count").notNull().default(0),
  /** bumped by every change of title or content: the key of the rendered-HTML cache */
  version: integer("version").notNull().default(1),
  /** recycle bin: set when deleted, cleared on restore */
  deleted_at: integer("deleted_at"),
  deleted_user_id: integer("deleted_user_id").notNull().default(0),
  ...timestamps,
}, (t) => [
  uniqueIndex("article_identifier").on(t.identifier),
  index("article_user").on(t.user_id, t.deleted_at),
  index("article_status").on(t.status, t.deleted_at, t.created_at),
  index("article_category").on(t.category_id),
  index("article_recommend").on(t.is_recommend, t.recommend_at),
  index("article_visible_views").on(t.status, t.deleted_at, t.view_count),
]);

export const articleFavorite = sqliteTable("article_favorite", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  article_id: integer("article_id").notNull().references(() => article.id, { onDelete: "cascade" }),
  ...timestamps,
}, (t) => [uniqueIndex("article_favorite_user_article").on(t.user_id, t.article_id), index("article_favorite_article").on(t.article_id)]);
