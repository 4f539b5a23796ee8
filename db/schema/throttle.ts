import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Failed sign-in counters (src/features/auth/throttle.ts), kept on disk so a restart does not
// hand a password-guessing attack a fresh allowance. Keys: "ip:<address>" and
// "pair:<account>|<address>"; times are UTC unix milliseconds.
export const loginThrottle = sqliteTable(
  "login_throttle",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull().default(0),
    /** no attempt under this key before this time (0 = none pending) */
    blocked_until: integer("blocked_until").notNull().default(0),
    /** last failure; counters older than a day are forgotten and swept */
    updated_at: integer("updated_at").notNull(),
  },
  (t) => [index("login_throttle_updated_at").on(t.updated_at)],
);
