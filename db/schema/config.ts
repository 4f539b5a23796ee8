import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";

// One row per (category, name); definitions and typed defaults live in src/features/settings/definitions.ts.
export const config = sqliteTable(
  "config",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    category: text("category").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("config_category_name").on(t.category, t.name)],
);
