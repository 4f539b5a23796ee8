import { z } from "zod";
import { dateRangeQuery, pageQuery } from "#src/features/admin/crud/schema.ts";
import { ORDER_NO_RE } from "./orderNo.ts";

// Request shapes of the order API; every message is what the member or admin sees.

const MAX_ID = 2_147_483_647;
const intIn = (label: string, min: number, max: number) =>
  z.number({ error: `${label}必须是数字` }).int(`${label}必须是整数`).min(min, `${label}不正确`).max(max, `${label}不正确`);
const queryInt = (label: string, min: number, max: number) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: `${label}不正确` }).int(`${label}不正确`).min(min, `${label}不正确`).max(max, `${label}不正确`).optional());

export const orderNoField = z.string({ error: "请提供订单号" }).trim().regex(ORDER_NO_RE, "订单号不正确");

export const createBody = z.object({
  order_type: z.number({ error: "订单类型必须是数字" }).int("订单类型不正确").refine((t) => t === 1 || t === 2 || t === 3, "订单类型不正确"),
  quantity: intIn("购买数量", 1, 10_000_000).default(1),
  product_id: intIn("商品 ID", 0, MAX_ID).optional(),
}, { error: "请求内容必须是 JSON 对象" });

export const orderNoQuery = z.object({ order_no: orderNoField });

export const payBody = z.object({
  order_no: orderNoField,
  payment_type: z.number({ error: "请选择支付方式" }).int("支付方式不正确").min(1, "支付方式不正确").max(10, "支付方式不正确"),
}, { error: "请求内容必须是 JSON 对象" });

export const closeBody = z.object({ order_no: orderNoField }, { error: "请求内容必须是 JSON 对象" });

export const userOrderQuery = z.object({
  ...pageQuery(10),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(50, "每页最多 50 条").default(10),
  order_type: queryInt("订单类型", 1, 3),
  status: queryInt("订单状态", 1, 3),
});

export const vipOrderQuery = z.object({
  ...pageQuery(10),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(50, "每页最多 50 条").default(10),
});

export const adminListQuery = z.object({
  ...pageQuery(20),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(1000, "每页最多 1000 条").default(20),
  order_type: queryInt("订单类型", 1, 3),
  status: queryInt("订单状态", 1, 3),
  payment_type: queryInt("支付方式", 0, 10),
  user_id: queryInt("用户 ID", 1, MAX_ID),
  order_no: z.preprocess((v) => (v === "" ? undefined : v), z.string({ error: "订单号不正确" }).trim().max(64, "订单号不正确").optional()),
  ...dateRangeQuery,
});

export const systemRechargeBody = z.object({
  user_id: z.number({ error: "请选择用户" }).int("用户 ID 不正确").positive("用户 ID 不正确").max(MAX_ID, "用户 ID 不正确"),
  amount: z.number({ error: "充值数量必须是数字" }).int("充值数量必须是正整数").min(1, "充值数量必须是正整数").max(10_000_000, "单次充值不能超过 10000000"),
  remark: z.string({ error: "备注必须是文本" }).trim().max(255, "备注不能超过 255 个字符").default(""),
}, { error: "请求内容必须是 JSON 对象" });

export const paymentLogQuery = z.object({
  ...pageQuery(20),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(500, "每页最多 500 条").default(20),
  order_no: z.preprocess((v) => (v === "" ? undefined : v), z.string({ error: "订单号不正确" }).trim().max(64, "订单号不正确").optional()),
});

