import { sqliteTable, integer, text, index, check, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { timestamps } from "./common.ts";
import { article } from "./articles.ts";
import { document } from "./documents.ts";
import { user } from "./users.ts";

// status: the generic statuses of spec §4 (0 normal, 1 disabled, 2 under review, 3 rejected, 4 ignored);
// only 0 is shown to visitors and counted.
export const comment = sqliteTable("comment", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  user_id: integer("user_id").notNull().references(() => user.id, { onDelete: "cascade" }),
  /** exactly one of document_id / article_id is set (comment_target) */
  document_id: integer("document_id").references(() => document.id, { onDelete: "cascade" }),
  article_id: integer("article_id").references(() => article.id, { onDelete: "cascade" }),
  /**
   * The top comment of the thread, NULL for a top comment: replies are one level deep, so a reply
   * to a reply hangs under the same top comment and names whom it answers in reply_user_id.
   */
  parent_id: integer("parent_id").references((): AnySQLiteColumn => comment.id, { onDelete: "cascade" }),
  reply_user_id: integer("reply_user_id").notNull().default(0),
  content: text("content").notNull(),
  status: integer("status").notNull().default(0),
  /** normal replies of a top comment: what "hottest" sorts by */
  reply_count: integer("reply_count").notNull().default(0),
  ip: text("ip").notNull().default(""),
  ...timestamps,
}, (t) => [
  // Plain column names: drizzle-kit qualifies ${t.col} with the table name, which breaks when it rebuilds a table.
  check("comment_target", sql`(document_id IS NULL) <> (article_id IS NULL)`),
  index("comment_document").on(t.document_id, t.parent_id, t.status),
  index("comment_article").on(t.article_id, t.parent_id, t.status),
  index("comment_parent").on(t.parent_id, t.status),
  // The minimum interval looks up a user's latest comment; /user/{id} lists theirs.
  index("comment_user").on(t.user_id, t.created_at),
  index("comment_status").on(t.status, t.created_at),
]);
