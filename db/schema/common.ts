import { integer } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

// Times are stored as UTC unix milliseconds.
export const timestamps = {
  created_at: integer("created_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  updated_at: integer("updated_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
};
