// The filter bar of the 对话记录 screen (no default export: not an island itself).
import { useState } from "react";
import type { Opt } from "../admin/AdminKit.tsx";
import { QUICK_RANGES, shanghaiDate } from "./AdminChatParts.tsx";

export interface ChatFilter { user: string; status: string; start: string; end: string; min_tokens: string; wd: string }
export const NO_FILTER: ChatFilter = { user: "", status: "", start: "", end: "", min_tokens: "", wd: "" };

// admin.css gives toolbar fields a 160px minimum and auto width; these stay narrower to fit one row.
const W = { minWidth: 0, maxWidth: 150 };

/** Fields apply on 查询 (or Enter); a quick range applies at once. */
export function ChatFilters({ statuses, ready, onApply }: { statuses: Opt[]; ready: boolean; onApply: (f: ChatFilter) => void }) {
  const [f, setF] = useState<ChatFilter>(NO_FILTER);
  const [quick, setQuick] = useState("");
  const set = (k: keyof ChatFilter) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setF({ ...f, [k]: e.target.value });
    if (k === "start" || k === "end") setQuick("");
  };
  const pickRange = (v: string) => {
    setQuick(v);
    const days = Number(v);
    const next = days ? { ...f, start: shanghaiDate(days - 1), end: shanghaiDate(0) } : { ...f, start: "", end: "" };
    setF(next);
    onApply(next);
  };
  return (
    <form className="adm-toolbar" role="search" aria-label="筛选对话记录" onSubmit={(e) => (e.preventDefault(), onApply(f))} style={{ flexWrap: "wrap" }}>
      <input name="user" aria-label="用户" placeholder="用户名或用户 ID" value={f.user} onChange={set("user")} style={W} maxLength={64} />
      <select name="status" aria-label="状态" value={f.status} onChange={set("status")} style={{ minWidth: 110 }}>
        <option value="">全部状态</option>
        {statuses.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <select name="range" aria-label="时间范围" value={quick} onChange={(e) => pickRange(e.target.value)} disabled={!ready} style={{ minWidth: 110 }}>
        <option value="">全部时间</option>
        {QUICK_RANGES.map((r) => <option key={r.days} value={r.days}>{r.label}</option>)}
      </select>
      <input type="date" name="start" aria-label="开始日期" style={{ minWidth: 0 }} value={f.start} max={f.end || undefined} onChange={set("start")} />
      <span className="adm-muted">至</span>
      <input type="date" name="end" aria-label="结束日期" style={{ minWidth: 0 }} value={f.end} min={f.start || undefined} onChange={set("end")} />
      <input type="number" name="min_tokens" aria-label="最少 token 数" placeholder="最少 tokens" min={0} value={f.min_tokens} onChange={set("min_tokens")} style={{ minWidth: 0, maxWidth: 120 }} />
      <input type="search" name="wd" aria-label="问题关键词" placeholder="问题关键词" value={f.wd} onChange={set("wd")} style={W} maxLength={100} />
      <button type="submit" className="adm-btn adm-btn-primary" disabled={!ready}>查询</button>
      <button type="button" className="adm-btn" disabled={!ready} onClick={() => (setF(NO_FILTER), setQuick(""), onApply(NO_FILTER))}>重置</button>
    </form>
  );
}
