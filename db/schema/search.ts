import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";

// Every search, logged off the request path: what people look for and what they do not find.
export const searchRecord = sqliteTable("search_record", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  keywords: text("keywords").notNull(),
  /** 0 documents, 1 articles */
  type: integer("type").notNull().default(0),
  total: integer("total").notNull().default(0),
  page: integer("page").notNull().default(1),
  /** milliseconds the search took */
  spend_ms: integer("spend_ms").notNull().default(0),
  user_id: integer("user_id").notNull().default(0),
  ip: text("ip").notNull().default(""),
  user_agent: text("user_agent").notNull().default(""),
  ...timestamps,
}, (t) => [index("search_record_created").on(t.created_at), index("search_record_keywords").on(t.keywords, t.created_at), index("search_record_total").on(t.total, t.created_at)]);
