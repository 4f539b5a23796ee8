// The dashboard's search panel: what people searched most in the last 7 days, and what found nothing.
import type { QueryCount } from "./records.ts";

function QueryTable({ title, rows, empty }: { title: string; rows: QueryCount[]; empty: string }) {
  return (
    <section className="adm-card">
      <h2 className="adm-card-title">{title}</h2>
      <table className="adm-table">
        <thead><tr><th style={{ width: 48 }}>#</th><th>关键词</th><th style={{ width: 80 }}>次数</th></tr></thead>
        <tbody>
          {rows.length ? rows.map((r, i) => (
            <tr key={r.keywords}>
              <td>{i + 1}</td>
              <td><a className="adm-ellipsis" href={`/search?wd=${encodeURIComponent(r.keywords)}`} target="_blank" rel="noopener" title={r.keywords}>{r.keywords}</a></td>
              <td>{r.count.toLocaleString("zh-CN")}</td>
            </tr>
          )) : <tr><td colSpan={3} className="adm-empty">{empty}</td></tr>}
        </tbody>
      </table>
    </section>
  );
}

export function SearchStatsPanel({ top, zero }: { top: QueryCount[]; zero: QueryCount[] }) {
  return (
    <div className="adm-grid-2">
      <QueryTable title="最近 7 天热门搜索" rows={top} empty="暂无搜索记录" />
      <QueryTable title="最近 7 天无结果搜索" rows={zero} empty="没有无结果的搜索" />
    </div>
  );
}
