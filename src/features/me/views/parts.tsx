import type { ReactNode } from "react";
import { formatDateTime, timeAgo } from "#src/lib/format.ts";
import type { CreditRow, GroupTag } from "../service.ts";
import type { DynamicRow } from "../dynamic.ts";

export function EmptyState({ title, text, action, icon = "doc" }: { title: string; text?: string; action?: { href: string; label: string }; icon?: "doc" | "feed" | "coin" | "order" | "vip" }) {
  const art: Record<string, ReactNode> = {
    doc: <><rect x="14" y="8" width="36" height="48" rx="4" fill="#eef2f7" stroke="#c9d3e0" strokeWidth="2" /><path d="M22 22h20M22 30h20M22 38h12" stroke="#c9d3e0" strokeWidth="3" strokeLinecap="round" /></>,
    feed: <><circle cx="32" cy="32" r="22" fill="#eef2f7" stroke="#c9d3e0" strokeWidth="2" /><path d="M32 20v13l8 6" stroke="#c9d3e0" strokeWidth="3" strokeLinecap="round" fill="none" /></>,
    coin: <><ellipse cx="32" cy="40" rx="20" ry="8" fill="#eef2f7" stroke="#c9d3e0" strokeWidth="2" /><ellipse cx="32" cy="28" rx="20" ry="8" fill="#f5f7fa" stroke="#c9d3e0" strokeWidth="2" /></>,
    order: <><rect x="12" y="14" width="40" height="38" rx="4" fill="#eef2f7" stroke="#c9d3e0" strokeWidth="2" /><path d="M20 26h24M20 34h24M20 42h14" stroke="#c9d3e0" strokeWidth="3" strokeLinecap="round" /></>,
    vip: <><path d="M10 24l11 10 11-18 11 18 11-10-5 26H15z" fill="#eef2f7" stroke="#c9d3e0" strokeWidth="2" strokeLinejoin="round" /></>,
  };
  return (
    <div className="empty-state">
      <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">{art[icon]}</svg>
      <p className="empty-title">{title}</p>
      {text ? <p className="muted">{text}</p> : null}
      {action ? <a className="btn btn-primary btn-sm" href={action.href}>{action.label}</a> : null}
    </div>
  );
}

export function GroupChips({ groups }: { groups: GroupTag[] }) {
  if (!groups.length) return null;
  return (
    <span className="group-chips">
      {groups.map((g) => (
        <span key={g.id} className="group-chip" style={g.color ? { color: g.color, borderColor: g.color } : undefined}>{g.title}</span>
      ))}
    </span>
  );
}

export function Counts({ items }: { items: { key: string; label: string; value: number }[] }) {
  return (
    <ul className="me-counts">
      {items.map((i) => (
        <li key={i.key}><strong>{i.value}</strong><span>{i.label}</span></li>
      ))}
    </ul>
  );
}

/** Activity feed as a timeline; times as time-ago with the exact time on hover. */
export function DynamicList({ rows, now = Date.now() }: { rows: DynamicRow[]; now?: number }) {
  return (
    <ul className="timeline">
      {rows.map((d) => (
        <li key={d.id}>
          <span className="timeline-dot" aria-hidden="true" />
          <p className="timeline-text">{d.content}</p>
          <time className="muted" dateTime={new Date(d.created_at).toISOString()} title={formatDateTime(d.created_at)}>{timeAgo(d.created_at, now)}</time>
        </li>
      ))}
    </ul>
  );
}

export function CreditList({ rows, creditName }: { rows: CreditRow[]; creditName: string }) {
  return (
    <table className="ledger">
      <thead>
        <tr><th>时间</th><th>事项</th><th className="num">变动</th><th className="num">余额</th></tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td className="muted">{formatDateTime(r.created_at)}</td>
            <td>{r.reason}</td>
            <td className={r.amount >= 0 ? "num plus" : "num minus"}>{r.amount >= 0 ? `+${r.amount}` : r.amount}</td>
            <td className="num" title={creditName}>{r.balance}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
