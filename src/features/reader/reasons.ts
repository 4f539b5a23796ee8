// Report reasons (spec §3) and report statuses; pure, so islands can import them too.
export const REPORT_REASONS = [
  { value: 1, label: "垃圾广告" },
  { value: 2, label: "淫秽色情" },
  { value: 3, label: "虚假中奖" },
  { value: 4, label: "敏感信息" },
  { value: 5, label: "人身攻击" },
  { value: 6, label: "骚扰他人" },
] as const;

export const REPORT_STATUS = [
  { value: 0, label: "待处理" },
  { value: 1, label: "已处理" },
] as const;

export const reasonLabel = (reason: number) => REPORT_REASONS.find((r) => r.value === reason)?.label ?? "其他";
