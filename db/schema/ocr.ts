import { sqliteTable, integer, text, real, index, primaryKey } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";
import { document } from "./documents.ts";

// OCR of scanned pages (issue 16). Statuses (spec §4): 0 pending, 1 running, 2 success, 3 failed.

/** One row per document that has (or had) pages without a text layer: the run as a whole. */
export const ocrDocument = sqliteTable(
  "ocr_document",
  {
    document_id: integer("document_id").primaryKey().references(() => document.id, { onDelete: "cascade" }),
    status: integer("status").notNull().default(0),
    engine: text("engine").notNull().default(""),
    /** pages chosen for OCR (no text layer, within ocr.max_pages), and how many finished each way */
    pages: integer("pages").notNull().default(0),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** mean confidence 0–100 of the recognised pages */
    confidence: real("confidence").notNull().default(0),
    ms: integer("ms").notNull().default(0),
    error: text("error").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("ocr_document_status").on(t.status, t.updated_at)],
);

/** One row per page chosen for OCR. */
export const ocrPage = sqliteTable(
  "ocr_page",
  {
    document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    status: integer("status").notNull().default(0),
    engine: text("engine").notNull().default(""),
    confidence: real("confidence").notNull().default(0),
    ms: integer("ms").notNull().default(0),
    chars: integer("chars").notNull().default(0),
    error: text("error").notNull().default(""),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.document_id, t.page] })],
);
