// The date-range filter of every admin list with dates (no default export: used inside the list
// islands). Quick ranges of spec §9 fill both days; the days can also be picked by hand. The list
// APIs read `start`/`end` as Asia/Shanghai days (admin/crud/schema.ts dateRangeQuery).
import { QUICK_RANGES, quickRange, quickRangeOf, type QuickRange } from "#src/lib/dateRange.ts";

export interface DateRangeValue { start: string; end: string }

export function AdminDateRange({ value, onChange, disabled, label = "时间" }: {
  value: DateRangeValue;
  onChange: (v: DateRangeValue) => void;
  disabled?: boolean;
  label?: string;
}) {
  const quick = value.start && value.end ? quickRangeOf(value.start, value.end) : "";
  return (
    <span className="adm-row adm-date-range" role="group" aria-label={`${label}范围`}>
      <select aria-label={`${label}快捷范围`} value={quick} disabled={disabled}
        onChange={(e) => onChange(e.target.value ? quickRange(e.target.value as QuickRange) : { start: "", end: "" })}>
        <option value="">{value.start || value.end ? "自定义" : `全部${label}`}</option>
        {QUICK_RANGES.map((r) => <option key={r.key} value={r.key}>{r.label}</option>)}
      </select>
      <input type="date" aria-label="开始日期" value={value.start} max={value.end || undefined} disabled={disabled} onChange={(e) => onChange({ ...value, start: e.target.value })} />
      <span className="adm-muted">至</span>
      <input type="date" aria-label="结束日期" value={value.end} min={value.start || undefined} disabled={disabled} onChange={(e) => onChange({ ...value, end: e.target.value })} />
    </span>
  );
}
