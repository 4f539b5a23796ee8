import type { order } from "#db/schema/orders.ts";

// Codes of spec §3, named once.
export const ORDER_TYPE = { document: 1, vip: 2, recharge: 3 } as const;
export const ORDER_STATUS = { pending: 1, paid: 2, closed: 3 } as const;
export const PAY_TYPE = { none: 0, wechat: 1, alipay: 2, bank: 3, cash: 4, credits: 5, system: 6, other: 7, card: 8, code: 9, ad: 10 } as const;

export type OrderRow = typeof order.$inferSelect;
export type MoneyPayType = 1 | 2;
export const isMoneyPayType = (t: number): t is MoneyPayType => t === 1 || t === 2;

export const ORDER_TYPE_TITLE: Record<number, string> = { 1: "购买文档", 2: "购买 VIP", 3: "积分充值" };
export const PAY_TYPE_TITLE: Record<number, string> = {
  0: "未选择", 1: "微信支付", 2: "支付宝", 3: "银行卡", 4: "现金", 5: "积分", 6: "系统充值", 7: "其他", 8: "卡商", 9: "下载码", 10: "广告支付",
};

export const ORDER_NOT_FOUND = "订单不存在";
