import { getSqlite } from "#db/client.ts";
import { enqueueOnce } from "#src/jobs/queue.ts";
import { configured, embeddingConfig, parseModelKey } from "./config.ts";
import { queueEmbedding } from "./enqueue.ts";
import { EMBEDDING_PRESET } from "./presets.ts";
import { activeSpace, buildingSpace, newestSpace, REBUILD_JOB, syncSpaces, vecTable, type Space } from "./spaces.ts";
import { lastQueryError } from "./vectors.ts";

// What the 向量模型 screen shows: the active and building spaces with their counts, the rebuild's
// progress, and the documents that failed (with retry).

export const SPACE_STATUS_LABEL: Record<number, string> = { 0: "构建中", 1: "使用中", 2: "已停用" };
export const EMBED_STATUS_LABEL: Record<number, string> = { 0: "等待中", 1: "处理中", 2: "成功", 3: "失败" };

export interface SpaceStatus {
  id: number;
  status: number;
  status_label: string;
  provider: string;
  provider_label: string;
  model: string;
  dimensions: number;
  chunk_size: number;
  chunk_overlap: number;
  created_at: number;
  activated_at: number;
  documents: { pending: number; running: number; success: number; failed: number; missing: number };
  vectors: number;
  /** share of servable documents embedded or failed, 0–100 */
  progress: number;
}

const ELIGIBLE = "d.status = 2 AND d.deleted_at IS NULL";
const n = (sql: string, ...args: number[]) => getSqlite().query<{ n: number }, number[]>(sql).get(...args)!.n;

function spaceStatus(s: Space): SpaceStatus {
  const key = parseModelKey(s.model_key);
  const counts = getSqlite().query<{ status: number; n: number }, [number]>(
    `SELECT de.status, count(*) AS n FROM document_embedding de JOIN document d ON d.id = de.document_id WHERE de.space_id = ? AND ${ELIGIBLE} GROUP BY de.status`,
  ).all(s.id);
  const by = (st: number) => counts.find((c) => c.status === st)?.n ?? 0;
  const eligible = n(`SELECT count(*) AS n FROM document d WHERE ${ELIGIBLE}`);
  const documents = { pending: by(0), running: by(1), success: by(2), failed: by(3), missing: 0 };
  documents.missing = Math.max(0, eligible - documents.pending - documents.running - documents.success - documents.failed);
  // The rowids shadow table is a plain b-tree: counting it does not read a single vector.
  const vectors = n(`SELECT count(*) AS n FROM ${vecTable(s.id)}_rowids`);
  return {
    id: s.id, status: s.status, status_label: SPACE_STATUS_LABEL[s.status] ?? "",
    provider: key.provider, provider_label: EMBEDDING_PRESET.get(key.provider)?.label ?? key.provider, model: key.model,
    dimensions: s.dimensions, chunk_size: key.chunk_size, chunk_overlap: key.chunk_overlap,
    created_at: s.created_at, activated_at: s.activated_at, documents, vectors,
    progress: eligible ? Math.min(100, Math.round(((documents.success + documents.failed) / eligible) * 100)) : 100,
  };
}

export interface EmbeddingStatus {
  enable: boolean;
  configured: boolean;
  active: SpaceStatus | null;
  building: SpaceStatus | null;
  eligible_documents: number;
  chunks: number;
  rebuild_job: { status: string; progress: number; error: string; updated_at: number } | null;
  last_query_error: { at: number; message: string } | null;
}

export function embeddingStatus(): EmbeddingStatus {
  syncSpaces();
  const cfg = embeddingConfig();
  const active = activeSpace();
  const building = buildingSpace();
  const job = getSqlite().query<{ status: string; progress: number; error: string; updated_at: number }, [string]>(
    "SELECT status, progress, error, updated_at FROM jobs WHERE kind = ? ORDER BY id DESC LIMIT 1",
  ).get(REBUILD_JOB);
  return {
    enable: cfg.enable,
    configured: configured(cfg),
    active: active ? spaceStatus(active) : null,
    building: building ? spaceStatus(building) : null,
    eligible_documents: n(`SELECT count(*) AS n FROM document d WHERE ${ELIGIBLE}`),
    chunks: n("SELECT count(*) AS n FROM chunk"),
    rebuild_job: job ?? null,
    last_query_error: lastQueryError,
  };
}

export interface FailureRow { document_id: number; uuid: string; title: string; space_id: number; error: string; updated_at: number }

/** Failed documents of the newest space (the one being built, else the active one), newest failure first. */
export function listFailures(q: { page: number; size: number }): { total: number; failure: FailureRow[] } {
  const space = newestSpace();
  if (!space) return { total: 0, failure: [] };
  const where = `de.space_id = ? AND de.status = 3 AND ${ELIGIBLE}`;
  const total = n(`SELECT count(*) AS n FROM document_embedding de JOIN document d ON d.id = de.document_id WHERE ${where}`, space.id);
  const failure = getSqlite().query<FailureRow, [number, number, number]>(
    `SELECT de.document_id, d.uuid, d.title, de.space_id, de.error, de.updated_at FROM document_embedding de JOIN document d ON d.id = de.document_id
     WHERE ${where} ORDER BY de.updated_at DESC, de.document_id DESC LIMIT ? OFFSET ?`,
  ).all(space.id, q.size, (q.page - 1) * q.size);
  return { total, failure };
}

/** Queues failed documents again (the given ones, or every failed one); answers how many. */
export function retryFailures(ids?: number[]): number {
  const space = newestSpace();
  if (!space) return 0;
  const db = getSqlite();
  return db.transaction(() => {
    const failed = db.query<{ document_id: number }, [number]>("SELECT document_id FROM document_embedding WHERE space_id = ? AND status = 3").all(space.id).map((r) => r.document_id);
    const chosen = ids?.length ? failed.filter((id) => ids.includes(id)) : failed;
    for (const id of chosen) queueEmbedding(id);
    // A building space waiting on its failures switches once they succeed: the rebuild job decides.
    if (chosen.length && space.status === 0) enqueueOnce(REBUILD_JOB, {});
    return chosen.length;
  }).immediate();
}

/** 重建索引: a fresh building space for the current settings (the active one keeps serving); null when off. */
export function forceRebuild(): Space | null {
  return syncSpaces({ force: true });
}
