import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";

// Durable job queue (design.md §6). status: queued | running | done | failed
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    payload: text("payload").notNull().default("{}"),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    max_attempts: integer("max_attempts").notNull().default(3),
    run_after: integer("run_after").notNull().default(0),
    lease_owner: text("lease_owner"),
    lease_until: integer("lease_until"),
    progress: integer("progress").notNull().default(0),
    error: text("error").notNull().default(""),
    result: text("result").notNull().default(""),
    finished_at: integer("finished_at"),
    ...timestamps,
  },
  (t) => [index("jobs_ready").on(t.status, t.run_after), index("jobs_kind").on(t.kind, t.status)],
);
