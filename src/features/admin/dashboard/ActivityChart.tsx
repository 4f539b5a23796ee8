import type { ActivityDay } from "./service.ts";

/** One bar of each day: the day's field `key`, drawn in `color`; `format` spells a value (e.g. money). */
export interface ChartSeries<K extends string = string> { key: K; label: string; color: string; format?: (v: number) => string }
type Day<K extends string> = { day: string } & Record<K, number>;

const SERIES: readonly ChartSeries<"users" | "attachments" | "jobs">[] = [
  { key: "users", label: "新增用户", color: "#1677ff" },
  { key: "attachments", label: "新增附件", color: "#13a8a8" },
  { key: "jobs", label: "完成任务", color: "#fa8c16" },
] as const;

/** Smallest "nice" axis maximum (1, 2, 5 × 10^n) that fits the data, at least 4. */
function niceMax(v: number): number {
  if (v <= 4) return 4;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((n) => n >= v)!;
}

interface Frame { w: number; h: number; font: number; labelEvery: number; className: string }

// Two drawings of the same data: a phone shrinks a wide chart until its text is unreadable, so it
// gets a narrower frame with relatively larger text; admin.css shows one or the other.
const WIDE: Frame = { w: 720, h: 240, font: 11, labelEvery: 1, className: "adm-chart-wide" };
const NARROW: Frame = { w: 360, h: 220, font: 11, labelEvery: 2, className: "adm-chart-narrow" };
// One drawing for a chart in half a row (e.g. two side by side): about its own width on every screen.
const COMPACT: Frame = { w: 400, h: 190, font: 12, labelEvery: 2, className: "adm-chart-compact" };

function Bars<K extends string>({ days, series, f, label }: { days: Day<K>[]; series: readonly ChartSeries<K>[]; f: Frame; label: string }) {
  // Narrow day slots (a month in a compact chart) leave the last day's label room to end inside.
  const pad = { left: f.font * 3, right: Math.max(6, f.font * 1.6 - (f.w - f.font * 3) / days.length / 2), top: 10, bottom: f.font * 2.4 };
  const max = niceMax(Math.max(0, ...days.flatMap((d) => series.map((s) => d[s.key]))));
  const plotH = f.h - pad.top - pad.bottom;
  const slot = (f.w - pad.left - pad.right) / days.length;
  const bar = Math.min(12, (slot - 4) / series.length);
  const y = (v: number) => pad.top + plotH - (v / max) * plotH;
  const ticks = [0, 1, 2, 3, 4].map((i) => (max / 4) * i);
  // A day label needs about four font sizes of width; longer ranges (30 days) label fewer days.
  const every = Math.max(f.labelEvery, Math.ceil(days.length / Math.floor((f.w - pad.left - pad.right) / (f.font * 4))));
  // Large axes (tokens) read better as 1.2万 / 3亿 than as long digit runs.
  const tick = (t: number) => (t >= 1e8 ? `${+(t / 1e8).toFixed(1)}亿` : t >= 1e4 ? `${+(t / 1e4).toFixed(1)}万` : Number.isInteger(t) ? t : t.toFixed(1));
  return (
    <svg className={f.className} viewBox={`0 0 ${f.w} ${f.h}`} role="img" aria-label={label} preserveAspectRatio="xMidYMid meet">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={pad.left} x2={f.w - pad.right} y1={y(t)} y2={y(t)} stroke="#e5e7eb" strokeDasharray={t ? "3 3" : undefined} />
          <text x={pad.left - 5} y={y(t) + f.font / 3} textAnchor="end" fontSize={f.font} fill="#8c8c8c">{tick(t)}</text>
        </g>
      ))}
      {days.map((d, i) => {
        const x0 = pad.left + i * slot + (slot - bar * series.length) / 2;
        return (
          <g key={d.day}>
            {series.map((s, j) => {
              const v = d[s.key];
              const h = Math.max(v ? 2 : 0, y(0) - y(v));
              return <rect key={s.key} x={x0 + j * bar} y={y(0) - h} width={Math.max(1, bar - 1)} height={h} rx="1.5" fill={s.color}><title>{`${d.day} ${s.label}：${s.format ? s.format(v) : v}`}</title></rect>;
            })}
            {(days.length - 1 - i) % every === 0 ? <text x={pad.left + i * slot + slot / 2} y={f.h - f.font * 0.8} textAnchor="middle" fontSize={f.font} fill="#8c8c8c">{d.day}</text> : null}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * Grouped bar chart as inline SVG: server-rendered, no chart library, readable without scripts.
 * Without `series` it draws the dashboard's activity (users, attachments, jobs).
 */
export function ActivityChart<K extends string = "users" | "attachments" | "jobs">({ days, series, title = "动态", compact = false }: {
  days: Day<K>[] | ActivityDay[]; series?: readonly ChartSeries<K>[]; title?: string; compact?: boolean;
}) {
  const list = (series ?? SERIES) as readonly ChartSeries<K>[];
  const rows = days as Day<K>[];
  const totals = list.map((s) => rows.reduce((n, d) => n + d[s.key], 0));
  const label = `最近 ${days.length} 天${title}：${list.map((s, i) => `${s.label} ${s.format ? s.format(totals[i]!) : totals[i]}`).join("，")}`;
  return (
    <figure className="adm-chart">
      <figcaption className="adm-legend">
        {list.map((s, i) => <span key={s.key}><i style={{ background: s.color }} />{s.label}<b>{s.format ? s.format(totals[i]!) : totals[i]!.toLocaleString("zh-CN")}</b></span>)}
      </figcaption>
      {compact ? <Bars days={rows} series={list} f={COMPACT} label={label} /> : (
        <>
          <Bars days={rows} series={list} f={WIDE} label={label} />
          <Bars days={rows} series={list} f={NARROW} label={label} />
        </>
      )}
    </figure>
  );
}
