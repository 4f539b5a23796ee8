import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";

export const category = sqliteTable(
  "category",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    parent_id: integer("parent_id").notNull().default(0),
    title: text("title").notNull(),
    // 0 document, 1 article
    type: integer("type").notNull().default(0),
    icon: text("icon").notNull().default(""),
    cover: text("cover").notNull().default(""),
    doc_count: integer("doc_count").notNull().default(0),
    sort: integer("sort").notNull().default(0),
    enable: integer("enable", { mode: "boolean" }).notNull().default(true),
    description: text("description").notNull().default(""),
    show_description: integer("show_description", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index("category_type_parent").on(t.type, t.parent_id, t.sort)],
);

export const navigation = sqliteTable(
  "navigation",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    parent_id: integer("parent_id").notNull().default(0),
    title: text("title").notNull(),
    href: text("href").notNull().default(""),
    target: text("target").notNull().default(""),
    color: text("color").notNull().default(""),
    sort: integer("sort").notNull().default(0),
    enable: integer("enable", { mode: "boolean" }).notNull().default(true),
    description: text("description").notNull().default(""),
    /**
     * "" for admin entries; "home", "category" (document categories) or "article" (article
     * categories) for the three built-in entries (spec §3 fixed). Fixed entries can be renamed,
     * hidden and reordered, never deleted; the category ones open the hover category card.
     */
    fixed: text("fixed").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("navigation_parent").on(t.parent_id, t.sort)],
);

export const friendlink = sqliteTable("friendlink", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  title: text("title").notNull(),
  link: text("link").notNull(),
  description: text("description").notNull().default(""),
  sort: integer("sort").notNull().default(0),
  enable: integer("enable", { mode: "boolean" }).notNull().default(true),
  ...timestamps,
});

export const banner = sqliteTable(
  "banner",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    path: text("path").notNull(),
    url: text("url").notNull().default(""),
    // 0 website, 1 mini-programme, 2 app
    type: integer("type").notNull().default(0),
    sort: integer("sort").notNull().default(0),
    enable: integer("enable", { mode: "boolean" }).notNull().default(true),
    description: text("description").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("banner_type").on(t.type, t.enable, t.sort)],
);

export const advertisement = sqliteTable(
  "advertisement",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull().default(""),
    position: text("position").notNull(),
    content: text("content").notNull().default(""),
    enable: integer("enable", { mode: "boolean" }).notNull().default(true),
    start_time: integer("start_time"),
    end_time: integer("end_time"),
    remark: text("remark").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("advertisement_position").on(t.position, t.enable)],
);

export const attachment = sqliteTable(
  "attachment",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    hash: text("hash").notNull(),
    user_id: integer("user_id").notNull().default(0),
    type_id: integer("type_id").notNull().default(0),
    // 0 unknown, 1 avatar, 2 document, 3 article, 4 comment, 5 banner, 6 category cover, 7 config, 8 spider document
    type: integer("type").notNull().default(0),
    enable: integer("enable", { mode: "boolean" }).notNull().default(true),
    path: text("path").notNull(),
    name: text("name").notNull().default(""),
    size: integer("size").notNull().default(0),
    width: integer("width").notNull().default(0),
    height: integer("height").notNull().default(0),
    ext: text("ext").notNull().default(""),
    ip: text("ip").notNull().default(""),
    description: text("description").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("attachment_type").on(t.type, t.type_id), index("attachment_hash").on(t.hash), index("attachment_created").on(t.created_at)],
);
