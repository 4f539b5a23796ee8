import { getSqlite } from "#db/client.ts";
import { enqueueOnce } from "#src/jobs/queue.ts";
import { getSettings } from "#src/features/settings/service.ts";
import { configured, embeddingConfig, modelKey, type EmbeddingConfig } from "./config.ts";

// Embedding spaces: one model at one width, with its vectors in the vec0 table chunk_vec_<id>
// (rowid = chunk.id). At most one is active (retrieval reads it) and at most one is building (the
// current settings, when they differ from the active one's). A trigger per space deletes a chunk's
// vector when the chunk row goes, so purging a document (chunks cascade) or re-chunking it can
// never leave a vector behind, whatever code path deleted it.

export const SPACE = { building: 0, active: 1, retired: 2 } as const;
export const REBUILD_JOB = "embedding.rebuild";

/** What a space embeds with: a snapshot of the settings it was made from (queries of an old, still active space need its own model). */
export type SpaceSettings = Pick<EmbeddingConfig, "provider" | "base_url" | "api_key" | "model" | "model_path" | "dimensions" | "timeout" | "batch_size" | "chunk_size" | "chunk_overlap">;

export interface Space {
  id: number;
  model_key: string;
  dimensions: number;
  status: number;
  activated_at: number;
  created_at: number;
  settings: SpaceSettings;
}

interface SpaceRow extends Omit<Space, "settings"> { settings: string }

export const vecTable = (id: number) => `chunk_vec_${Math.trunc(id)}`;
const triggerName = (id: number) => `chunk_vec_${Math.trunc(id)}_gone`;

const snapshot = (c: EmbeddingConfig): SpaceSettings => ({
  provider: c.provider, base_url: c.base_url, api_key: c.api_key, model: c.model, model_path: c.model_path,
  dimensions: c.dimensions, timeout: c.timeout, batch_size: c.batch_size, chunk_size: c.chunk_size, chunk_overlap: c.chunk_overlap,
});

function parse(row: SpaceRow): Space {
  let settings: SpaceSettings;
  try {
    settings = JSON.parse(row.settings) as SpaceSettings;
  } catch {
    settings = {} as SpaceSettings;
  }
  return { ...row, settings };
}

const SELECT = "SELECT id, model_key, dimensions, status, activated_at, created_at, settings FROM embedding_space";

/** The active and the building space (retired ones are only waiting for their table to be dropped). */
export function liveSpaces(): Space[] {
  return getSqlite().query<SpaceRow, []>(`${SELECT} WHERE status IN (0, 1) ORDER BY id`).all().map(parse);
}

export const activeSpace = (): Space | null => liveSpaces().find((s) => s.status === SPACE.active) ?? null;
export const buildingSpace = (): Space | null => liveSpaces().findLast((s) => s.status === SPACE.building) ?? null;
export const getSpace = (id: number): Space | null => {
  const row = getSqlite().query<SpaceRow, [number]>(`${SELECT} WHERE id = ?`).get(id);
  return row ? parse(row) : null;
};

/** The space new chunks are cut for and new documents are embedded into first: the building one, else the active one. */
export const newestSpace = (): Space | null => buildingSpace() ?? activeSpace();

function createTables(id: number, dims: number) {
  const db = getSqlite();
  // Cosine distance: remote models do not all return unit vectors; cosine does not care.
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vecTable(id)} USING vec0(embedding float[${Math.trunc(dims)}] distance_metric=cosine)`);
  db.exec(`CREATE TRIGGER IF NOT EXISTS ${triggerName(id)} AFTER DELETE ON chunk BEGIN DELETE FROM ${vecTable(id)} WHERE rowid = old.id; END`);
}

function dropSpace(id: number) {
  const db = getSqlite();
  db.exec(`DROP TRIGGER IF EXISTS ${triggerName(id)}`);
  db.exec(`DROP TABLE IF EXISTS ${vecTable(id)}`);
  // document_embedding rows cascade.
  db.query("DELETE FROM embedding_space WHERE id = ?").run(id);
}

/** Makes a building space for the settings and queues its rebuild; any other building space is dropped. */
function createSpace(c: EmbeddingConfig): Space {
  for (const s of liveSpaces()) if (s.status === SPACE.building) dropSpace(s.id);
  const row = getSqlite().query<SpaceRow, [string, number, string]>(
    `INSERT INTO embedding_space (model_key, dimensions, status, settings) VALUES (?, ?, 0, ?) RETURNING id, model_key, dimensions, status, activated_at, created_at, settings`,
  ).get(modelKey(c), c.dimensions, JSON.stringify(snapshot(c)))!;
  createTables(row.id, c.dimensions);
  enqueueOnce(REBUILD_JOB, { space_id: row.id });
  return parse(row);
}

let seen: ReturnType<typeof getSettings> | null = null;

/**
 * Brings the spaces in line with the settings: a new key (model, width, chunking) gets a building
 * space and a rebuild job, while the active space keeps serving; the same key takes the new base
 * URL or key. Cheap when nothing changed (the settings object is cached until a save), so it is
 * called wherever embeddings are used instead of hooking the generic settings save. Returns the
 * space that matches the settings, or null when embeddings are off or not configured.
 */
export function syncSpaces(opts: { force?: boolean } = {}): Space | null {
  const all = getSettings();
  const cfg = embeddingConfig();
  if (!cfg.enable || !configured(cfg)) {
    seen = all;
    return null;
  }
  const changed = seen !== all;
  if (!changed && !opts.force) return liveSpaces().findLast((s) => s.model_key === modelKey(cfg)) ?? null;
  const db = getSqlite();
  const space = db.transaction(() => {
    const key = modelKey(cfg);
    const same = liveSpaces().findLast((s) => s.model_key === key);
    if (same && !opts.force) {
      const snap = JSON.stringify(snapshot(cfg));
      if (JSON.stringify(same.settings) !== snap) db.query("UPDATE embedding_space SET settings = ?, updated_at = ? WHERE id = ?").run(snap, Date.now(), same.id);
      // Switched on again, or documents converted while it was off: the fill job embeds what is missing.
      enqueueOnce(REBUILD_JOB, { space_id: same.id });
      return { ...same, settings: snapshot(cfg) };
    }
    return createSpace(cfg);
  }).immediate();
  seen = all;
  return space;
}

/**
 * The switch: the building space becomes the active one and the old active one goes, with its
 * trigger, table and status rows, in one transaction; retrieval reads either the old or the new
 * space, never a half of each.
 */
export function activateSpace(id: number): boolean {
  const db = getSqlite();
  return db.transaction(() => {
    const s = getSpace(id);
    if (!s || s.status !== SPACE.building) return false;
    for (const old of liveSpaces()) if (old.status === SPACE.active) dropSpace(old.id);
    db.query("UPDATE embedding_space SET status = 1, activated_at = ?, updated_at = ? WHERE id = ?").run(Date.now(), Date.now(), id);
    return true;
  }).immediate();
}

/** Retired spaces left behind by a crash between the switch and the drop; and vec tables without a space row. */
export function dropLeftovers() {
  const db = getSqlite();
  for (const r of db.query<{ id: number }, []>("SELECT id FROM embedding_space WHERE status = 2").all()) dropSpace(r.id);
  const live = new Set(liveSpaces().map((s) => vecTable(s.id)));
  const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'chunk_vec_[0-9]*' AND sql LIKE 'CREATE VIRTUAL%'").all();
  for (const t of tables) {
    if (live.has(t.name)) continue;
    const id = Number(t.name.slice("chunk_vec_".length));
    db.exec(`DROP TRIGGER IF EXISTS ${triggerName(id)}`);
    db.exec(`DROP TABLE IF EXISTS ${t.name}`);
  }
}

/** Forgets what syncSpaces saw (tests switch databases under one process). */
export const resetSpaceSync = () => void (seen = null);
