import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";

// The spider (issue 12): URLs an admin asked to collect, and the document links found on them.

/** spider url status (spec §4): 0 pending, 1 collecting, 2 done, 3 failed */
export const spiderUrl = sqliteTable(
  "spider_url",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    url: text("url").notNull(),
    /** target category (leaf) and owner of the documents published from this URL */
    category_id: integer("category_id").notNull(),
    user_id: integer("user_id").notNull(),
    /** link depth followed from this page: 0 only the page itself, at most 2 */
    depth: integer("depth").notNull().default(0),
    same_site: integer("same_site", { mode: "boolean" }).notNull().default(true),
    /** document types collected, comma-separated bare extensions ("pdf,docx") */
    exts: text("exts").notNull().default(""),
    /** largest file downloaded, in MB */
    max_size: integer("max_size").notNull().default(50),
    price: integer("price").notNull().default(0),
    status: integer("status").notNull().default(0),
    /** why it failed, or a summary of what was collected */
    message: text("message").notNull().default(""),
    pages: integer("pages").notNull().default(0),
    found: integer("found").notNull().default(0),
    created_by: integer("created_by").notNull().default(0),
    ...timestamps,
  },
  (t) => [index("spider_url_status").on(t.status, t.id)],
);

/**
 * spider document status (spec §4): 0 pending download, 1 download queue, 2 downloading,
 * 3 download success, 4 download failed, 5 publish queue, 6 publishing, 7 publish success, 8 publish failed
 */
export const spiderDocument = sqliteTable(
  "spider_document",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    spider_url_id: integer("spider_url_id").notNull().references(() => spiderUrl.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** the page the link was found on, and the link's text (the document's title when published) */
    referer: text("referer").notNull().default(""),
    title: text("title").notNull().default(""),
    status: integer("status").notNull().default(0),
    message: text("message").notNull().default(""),
    /** the type-8 attachment holding the downloaded file */
    attachment_id: integer("attachment_id").notNull().default(0),
    hash: text("hash").notNull().default(""),
    ext: text("ext").notNull().default(""),
    size: integer("size").notNull().default(0),
    /** the published document, or the library's document these bytes duplicate */
    document_id: integer("document_id").notNull().default(0),
    duplicate: integer("duplicate", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("spider_document_url").on(t.spider_url_id, t.url),
    index("spider_document_status").on(t.status, t.id),
    index("spider_document_hash").on(t.hash),
  ],
);
