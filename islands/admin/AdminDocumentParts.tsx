// Pieces of the admin document screens (no default export: not an island itself).
import { formatBytes, formatDate, formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export type DocRow = Record<string, unknown> & {
  id: number; uuid: string; title: string; status: number; status_label: string; username: string; user_id: number; category_title: string;
  ext: string; pages: number; size: number; price: number; is_recommend: boolean; convert_error?: string; created_at: number;
  deleted_at?: number | null; deleted_username?: string;
};

const TONE: Record<number, string> = { 2: "adm-tag adm-tag-ok", 3: "adm-tag adm-tag-bad", 4: "adm-tag adm-tag-bad", 6: "adm-tag adm-tag-warn", 7: "adm-tag adm-tag-bad" };

export function StatusTag({ row }: { row: DocRow }) {
  return <span className={TONE[row.status] ?? "adm-tag"} title={row.convert_error || undefined}>{row.status_label}</span>;
}

export const docLink = (r: DocRow) => <a className="adm-ellipsis adm-doc-title" href={`/document/${r.uuid}`} target="_blank" rel="noopener noreferrer" title={r.title}>{r.title}</a>;
export const size = (r: DocRow) => <span className="adm-nowrap">{formatBytes(r.size)}</span>;
export const day = (ms: number) => <span className="adm-nowrap" title={formatDateTime(ms)}>{formatDate(ms)}</span>;
export const when = (ms: unknown) => <span className="adm-nowrap">{typeof ms === "number" ? formatDateTime(ms) : "—"}</span>;

/** One PUT on the picked rows with a success toast; answers whether it worked. */
export async function batch(path: string, body: Record<string, unknown>, done: string): Promise<boolean> {
  const r = await api<{ message?: string }>("PUT", path, { body });
  if (!r.ok) {
    toast(r.message || "操作失败", "error");
    return false;
  }
  toast(r.data?.message || done, "success");
  return true;
}

const ACTIONS: { label: string; path: string; body: Record<string, unknown>; danger?: boolean }[] = [
  { label: "审核通过", path: "/document/check", body: { status: 2 } },
  { label: "审核拒绝", path: "/document/check", body: { status: 7 }, danger: true },
  { label: "禁用", path: "/document/check", body: { status: 4 }, danger: true },
  { label: "启用", path: "/document/check", body: { status: 2 } },
  { label: "推荐", path: "/document/recommend", body: { type: 1 } },
  { label: "取消推荐", path: "/document/recommend", body: { type: 0 } },
  { label: "重新转换", path: "/document/reconvert", body: {} },
];

/** Batch buttons over the picked documents, plus reconverting every failed one. */
export function BatchBar({ picked, ready, onDone, onDelete }: { picked: number[]; ready: boolean; onDone: () => void; onDelete: () => void }) {
  const run = async (a: (typeof ACTIONS)[number]) => (await batch(a.path, { ...a.body, id: picked }, "操作成功")) && onDone();
  return (
    <div className="adm-toolbar adm-doc-batch" role="group" aria-label="批量操作">
      <span className="adm-muted">{picked.length ? `已选 ${picked.length} 篇` : "勾选文档后可批量操作"}</span>
      {ACTIONS.map((a) => (
        <button key={a.label} type="button" className={a.danger ? "adm-btn adm-btn-sm adm-btn-danger" : "adm-btn adm-btn-sm"} disabled={!ready || !picked.length} onClick={() => void run(a)}>{a.label}</button>
      ))}
      <button type="button" className="adm-btn adm-btn-sm adm-btn-danger" disabled={!ready || !picked.length} onClick={onDelete}>删除</button>
      <span className="adm-spacer" />
      <button type="button" className="adm-btn adm-btn-sm" disabled={!ready} onClick={async () => (await batch("/document/reconvert", { all_failed: true }, "已加入转换队列")) && onDone()}>重新转换全部失败文档</button>
      <a className="adm-btn adm-btn-sm" href="/admin/document/recycle">回收站</a>
    </div>
  );
}
