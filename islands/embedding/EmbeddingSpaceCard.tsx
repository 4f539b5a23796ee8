// One embedding space on the 向量模型 screen (no default export: not an island itself).
import type { SpaceStatus } from "#src/features/embedding/status.ts";
import { formatDateTime } from "#src/lib/format.ts";

const num = (v: number) => v.toLocaleString("zh-CN");

export function SpaceCard({ title, s }: { title: string; s: SpaceStatus }) {
  const d = s.documents;
  return (
    <section className="adm-card" aria-label={title}>
      <h2 className="adm-card-title">{title}</h2>
      <dl className="adm-kv">
        <div><dt>状态</dt><dd><strong>{s.status_label}</strong>{s.status === 0 ? `（${s.progress}%）` : ""}</dd></div>
        <div><dt>模型</dt><dd>{`${s.provider_label} · ${s.model}`}</dd></div>
        <div><dt>向量维度</dt><dd>{s.dimensions}</dd></div>
        <div><dt>片段</dt><dd>{`每段约 ${s.chunk_size} 字，重叠 ${s.chunk_overlap} 字`}</dd></div>
        <div><dt>{s.status === 1 ? "启用时间" : "创建时间"}</dt><dd>{formatDateTime(s.status === 1 ? s.activated_at : s.created_at)}</dd></div>
      </dl>
      {s.status === 0 ? <progress max={100} value={s.progress} aria-label="重建进度" style={{ width: "100%", margin: "8px 0" }} /> : null}
      <ul className="adm-stats">
        <li><div><span className="adm-stat-label">已完成文档</span><strong className="adm-stat-value">{num(d.success)}</strong></div></li>
        <li><div><span className="adm-stat-label">等待 / 处理中</span><strong className="adm-stat-value">{num(d.pending + d.running + d.missing)}</strong></div></li>
        <li><div><span className="adm-stat-label">失败文档</span><strong className="adm-stat-value">{num(d.failed)}</strong></div></li>
        <li><div><span className="adm-stat-label">向量数</span><strong className="adm-stat-value">{num(s.vectors)}</strong></div></li>
      </ul>
    </section>
  );
}
