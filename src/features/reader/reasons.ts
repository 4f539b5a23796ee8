// Report reasons (spec §3) and report statuses; pure, so islands can import them too.
export const REPORT_REASONS = [
  { value: 1, label: "垃圾广告" },
  { value: 2, label: "淫秽色情" },
  { value: 3, label: "虚假中奖" },
  { value: 4, label: "敏感信息" },
  { value: 5, label: "人身攻击" },
  { value: 6, label: "骚扰他人" },
] as const;

/**
 * Report statuses are the generic statuses of spec §4 (0 normal, 1 disabled, 2 under review,
 * 3 rejected, 4 ignored). A report starts at 2 (under review = pending); the admin either marks it
 * 0 (normal = handled: the report was valid and acted on) or 4 (ignored: nothing to do).
 * 1 and 3 are not used by reports. Migration 0014 moved old rows (0 pending → 2, 1 handled → 0).
 */
export const REPORT_PENDING = 2;
export const REPORT_HANDLED = 0;
export const REPORT_IGNORED = 4;

export const REPORT_STATUS = [
  { value: REPORT_PENDING, label: "待处理" },
  { value: REPORT_HANDLED, label: "已处理" },
  { value: REPORT_IGNORED, label: "已忽略" },
] as const;

export const REPORT_STATUS_VALUES = REPORT_STATUS.map((s) => s.value) as number[];

export const reasonLabel = (reason: number) => REPORT_REASONS.find((r) => r.value === reason)?.label ?? "其他";
