// Names of order types, statuses and payment methods as members read them (spec §3), with the
// site's credit name (types.ts keeps the admin's fixed titles). Pure, so the order islands use the
// same words as the server pages.

export function orderTypeLabel(type: number, creditName: string): string {
  return type === 1 ? "购买文档" : type === 2 ? "VIP 会员" : type === 3 ? `${creditName}充值` : "其他";
}

export function orderStatusLabel(status: number): string {
  return status === 1 ? "待支付" : status === 2 ? "已支付" : status === 3 ? "已关闭" : "未知";
}

const PAYMENT_NAMES: Record<number, string> = {
  1: "微信支付", 2: "支付宝", 3: "银行卡", 4: "现金", 6: "系统充值", 7: "其他", 8: "卡密", 9: "下载码", 10: "广告支付",
};

export function paymentLabel(type: number, creditName: string): string {
  if (type === 5) return `${creditName}支付`;
  return PAYMENT_NAMES[type] ?? "未选择";
}

/** Months as people say them: 12 → 1 年, 3 → 3 个月. */
export function monthsLabel(months: number): string {
  return months > 0 && months % 12 === 0 ? `${months / 12} 年` : `${months} 个月`;
}
