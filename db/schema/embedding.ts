import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { timestamps } from "./common.ts";
import { document } from "./documents.ts";

// Embeddings (issue 16). Chunks are page-bounded text windows, shared by every embedding space;
// the vectors themselves live in sqlite-vec tables `chunk_vec_<space id>` (float[dimensions]),
// created at run time because a vec0 table's width is fixed when it is made.

export const chunk = sqliteTable(
  "chunk",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    /** order within the page, from 0 */
    seq: integer("seq").notNull(),
    /** character offset of the window in the page text */
    start: integer("start").notNull().default(0),
    text: text("text").notNull(),
  },
  (t) => [uniqueIndex("chunk_document_page_seq").on(t.document_id, t.page, t.seq)],
);

/**
 * An embedding space: one model at one width. Status 0 building, 1 active (the one retrieval
 * reads; at most one), 2 retired (kept until its table is dropped). A new model or width builds a
 * new space in the background while the active one keeps serving.
 */
export const embeddingSpace = sqliteTable(
  "embedding_space",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** provider|model|dimensions|chunk settings: what makes vectors comparable */
    model_key: text("model_key").notNull(),
    dimensions: integer("dimensions").notNull(),
    status: integer("status").notNull().default(0),
    activated_at: integer("activated_at").notNull().default(0),
    /**
     * JSON of the embedder the space was built with (provider, base_url, api_key, model, model_path,
     * dimensions): while a new space builds, the settings already name the new model, and queries
     * against the old, still active space must be embedded by the old one.
     */
    settings: text("settings").notNull().default("{}"),
    ...timestamps,
  },
  (t) => [index("embedding_space_status").on(t.status)],
);

/** Per document and space: 0 pending, 1 running, 2 success, 3 failed. */
export const documentEmbedding = sqliteTable(
  "document_embedding",
  {
    space_id: integer("space_id").notNull().references(() => embeddingSpace.id, { onDelete: "cascade" }),
    document_id: integer("document_id").notNull().references(() => document.id, { onDelete: "cascade" }),
    status: integer("status").notNull().default(0),
    chunks: integer("chunks").notNull().default(0),
    ms: integer("ms").notNull().default(0),
    error: text("error").notNull().default(""),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.space_id, t.document_id] }), index("document_embedding_status").on(t.space_id, t.status)],
);
