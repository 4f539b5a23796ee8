import { and, count, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { order } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { findDownloadable } from "#src/features/downloads/service.ts";
import { GatewayError, type PayStart } from "#src/features/payments/gateway.ts";
import { enabledMoneyPayTypes, gatewayFor } from "#src/features/payments/registry.ts";
import { grantsOf } from "#src/features/permissions/service.ts";
import { creditName, setting } from "#src/features/settings/service.ts";
import { isVipAt } from "#src/features/vip/membership.ts";
import { planById } from "#src/features/vip/plans.ts";
import { badGateway, badRequest, conflict, notFound, tooManyRequests } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { markPaid } from "./fulfil.ts";
import { newOrderNo } from "./orderNo.ts";
import { hasBought } from "./ownership.ts";
import { logPayment, PAY_EVENT } from "./paymentLog.ts";
import { documentAmount, parseDiscountTiers, rechargeQuote, validRechargeQuantity, vipCreditPrice, vipQuote } from "./pricing.ts";
import { claimStatusQuery, closeAtGateways, closeLocally, syncWithGateways } from "./settle.ts";
import { isMoneyPayType, ORDER_NOT_FOUND, ORDER_STATUS, ORDER_TYPE, PAY_TYPE, type OrderRow } from "./types.ts";

export interface Viewer { id: number; is_root: boolean }

/** An order as every API answer shows it (contract "Order JSON"). */
export interface OrderView {
  id: number; order_no: string; user_id: number; username: string; order_type: number; product_id: number; product_title: string;
  quantity: number; amount: number; discount: number; credits: number; credit_price: number; vip_months: number; payment_type: number;
  status: number; transaction_id: string; paid_at: number | null; closed_at: number | null; expire_at: number; remark: string;
  created_at: number; updated_at: number;
}

const VIEW = {
  id: order.id, order_no: order.order_no, user_id: order.user_id, username: sql<string>`coalesce(${user.username}, '')`, order_type: order.order_type,
  product_id: order.product_id, product_title: order.product_title, quantity: order.quantity, amount: order.amount, discount: order.discount,
  credits: order.credits, credit_price: order.credit_price, vip_months: order.vip_months, payment_type: order.payment_type, status: order.status,
  transaction_id: order.transaction_id, paid_at: order.paid_at, closed_at: order.closed_at, expire_at: order.expire_at, remark: order.remark,
  created_at: order.created_at, updated_at: order.updated_at,
};

const viewQuery = () => getDb().select(VIEW).from(order).leftJoin(user, eq(user.id, order.user_id));

/** Whoever may see every order: the root administrator, or a holder of the admin order list. */
export const isOrderAdmin = (v: Viewer) => v.is_root || grantsOf(v.id).keys.has("GET /api/v1/order/list");

const rowByNo = (orderNo: string) => getDb().select().from(order).where(eq(order.order_no, orderNo)).get();

/** The viewer's own order (admins: any when `adminMay`), or 404 — another member's order never shows it exists. */
function orderFor(viewer: Viewer, orderNo: string, adminMay: boolean): OrderRow {
  const o = orderNo ? rowByNo(orderNo) : undefined;
  if (!o || (o.user_id !== viewer.id && !(adminMay && isOrderAdmin(viewer)))) throw notFound(ORDER_NOT_FOUND);
  return o;
}

const balanceOf = (userId: number) => getDb().select({ c: user.credit_count }).from(user).where(eq(user.id, userId)).get()?.c ?? 0;

/** Payment types this order can use now: the enabled gateways for money, 5 when its owner could pay credit_price. */
export function payTypesOf(o: Pick<OrderRow, "status" | "expire_at" | "amount" | "order_type" | "credit_price" | "user_id">, now = Date.now()): number[] {
  if (o.status !== ORDER_STATUS.pending || o.expire_at <= now) return [];
  const types: number[] = o.amount > 0 ? [...enabledMoneyPayTypes()] : [];
  if (o.order_type === ORDER_TYPE.document && o.credit_price > 0 && balanceOf(o.user_id) >= o.credit_price) types.push(PAY_TYPE.credits);
  return types;
}

export function orderView(orderNo: string): OrderView {
  const v = viewQuery().where(eq(order.order_no, orderNo)).get();
  if (!v) throw notFound(ORDER_NOT_FOUND);
  return v;
}

/** GET /order: the order with the payment types it can use now. Own order, or any for order admins. */
export function getOrderFor(viewer: Viewer, orderNo: string): OrderView & { pay_types: number[] } {
  const o = orderFor(viewer, orderNo, true);
  return { ...orderView(o.order_no), pay_types: payTypesOf(o) };
}

export interface OrderFilter {
  page: number; size: number; order_type?: number; status?: number; payment_type?: number; user_id?: number; order_no?: string; start?: number; end?: number;
}

function whereOf(f: Omit<OrderFilter, "page" | "size">): SQL | undefined {
  return and(
    f.order_type === undefined ? undefined : eq(order.order_type, f.order_type),
    f.status === undefined ? undefined : eq(order.status, f.status),
    f.payment_type === undefined ? undefined : eq(order.payment_type, f.payment_type),
    f.user_id === undefined ? undefined : eq(order.user_id, f.user_id),
    f.order_no ? eq(order.order_no, f.order_no) : undefined,
    f.start === undefined ? undefined : gte(order.created_at, f.start),
    f.end === undefined ? undefined : lte(order.created_at, f.end),
  );
}

function page(where: SQL | undefined, p: { page: number; size: number }) {
  const rows = viewQuery().where(where).orderBy(desc(order.created_at), desc(order.id)).limit(p.size).offset((p.page - 1) * p.size).all();
  const total = getDb().select({ n: count() }).from(order).where(where).get()!.n;
  return { total, order: rows };
}

/** GET /user/order: a member's own orders, newest first. */
export function listUserOrders(userId: number, q: { page: number; size: number; order_type?: number; status?: number }): { total: number; order: OrderView[] } {
  return page(whereOf({ user_id: userId, order_type: q.order_type, status: q.status }), q);
}

/** GET /order/list (admin): filtered orders with totals over the whole filter (paid money, paid count, credits granted). */
export function listOrders(f: OrderFilter) {
  const where = whereOf(f);
  const paid = sql`${order.status} = ${ORDER_STATUS.paid}`;
  const t = getDb().select({
    count: count(),
    paid_amount: sql<number>`coalesce(sum(CASE WHEN ${paid} THEN ${order.amount} ELSE 0 END), 0)`,
    paid_count: sql<number>`coalesce(sum(CASE WHEN ${paid} THEN 1 ELSE 0 END), 0)`,
    credits: sql<number>`coalesce(sum(CASE WHEN ${paid} THEN ${order.credits} ELSE 0 END), 0)`,
  }).from(order).where(where).get()!;
  return { ...page(where, f), totals: { count: t.count, paid_amount: Number(t.paid_amount), paid_count: Number(t.paid_count), credits: Number(t.credits) } };
}

// ── creating ─────────────────────────────────────────────────────────────────────────────────

export interface NewOrder { order_type: number; quantity: number; product_id?: number }

const expireMinutes = () => Math.min(1440, Math.max(5, Number(setting("payment", "order_expire_minutes")) || 30));
const exchangeRate = () => {
  const x = Number(setting("recharge", "credit_exchange"));
  if (!(x > 0)) throw badRequest("积分兑换比例未设置，请联系管理员");
  return x;
};

// A member creating orders in a loop fills the table for nothing: a generous per-minute cap.
const CREATE_PER_MINUTE = 30;

type Priced = Pick<OrderRow, "product_id" | "product_title" | "quantity" | "amount" | "discount" | "credits" | "credit_price" | "vip_months">;

function priceRecharge(quantity: number): Priced {
  if (!setting<boolean>("recharge", "enable")) throw badRequest(`${creditName()}充值未开启`);
  const exchange = exchangeRate();
  if (!validRechargeQuantity(quantity, exchange)) throw badRequest(`充值数量必须是 ${exchange} 的正整数倍，且不超过 10000000`);
  const q = rechargeQuote(quantity, exchange, parseDiscountTiers(String(setting("recharge", "recharge_discount") ?? "")));
  if (q.amount < 1) throw badRequest("订单金额过小");
  return { product_id: 0, product_title: `${quantity} ${creditName()}`, quantity, amount: q.amount, discount: q.discount, credits: q.credits, credit_price: 0, vip_months: 0 };
}

function priceVip(planId: number | undefined, quantity: number): Priced {
  if (!setting<boolean>("vip", "enable")) throw badRequest("VIP 会员暂未开放");
  const plan = planId ? planById(planId) : undefined;
  if (!plan || !plan.enable) throw badRequest("请选择有效的 VIP 套餐");
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 12) throw badRequest("购买数量必须是 1 到 12 之间的整数");
  const q = vipQuote(plan, quantity);
  return { product_id: plan.id, product_title: plan.title, quantity, amount: q.amount, discount: q.discount, credits: 0, credit_price: 0, vip_months: q.months };
}

function priceDocument(userId: number, documentId: number | undefined, quantity: number, now: number): Priced {
  if (!documentId) throw badRequest("请指定要购买的文档");
  if (quantity !== 1) throw badRequest("文档每次只能购买 1 份");
  const doc = findDownloadable({ id: documentId });
  if (doc.price <= 0) throw badRequest("该文档免费，无需购买");
  if (doc.user_id === userId) throw badRequest("这是您自己上传的文档，无需购买");
  if (hasBought(userId, doc.id)) throw badRequest("您已购买过该文档，可直接下载");
  const vipUntil = getDb().select({ v: user.vip_until }).from(user).where(eq(user.id, userId)).get()?.v ?? null;
  // A VIP's credit discount carries over to buying; free VIP downloads end with the membership, a purchase does not.
  const creditPrice = isVipAt(vipUntil, now) && !setting<boolean>("vip", "download_free")
    ? Math.max(1, vipCreditPrice(doc.price, Number(setting("vip", "download_discount"))))
    : doc.price;
  return { product_id: doc.id, product_title: doc.title.slice(0, 255), quantity: 1, amount: documentAmount(doc.price, exchangeRate()), discount: 0, credits: 0, credit_price: creditPrice, vip_months: 0 };
}

const isOrderNoClash = (e: unknown) => {
  for (let x: any = e, i = 0; x && i < 3; x = x.cause, i++) if (/UNIQUE constraint failed: order\.order_no/.test(String(x.message ?? x))) return true;
  return false;
};

/** POST /order: prices come only from the server (settings, plans, documents); the client names type, quantity and product. */
export function createOrder(userId: number, input: NewOrder, ip: string, now = Date.now()): { order_no: string } {
  if (!hit(`order:create:${userId}`, CREATE_PER_MINUTE, 60_000, now)) throw tooManyRequests("下单过于频繁，请稍后再试");
  const priced = input.order_type === ORDER_TYPE.recharge ? priceRecharge(input.quantity)
    : input.order_type === ORDER_TYPE.vip ? priceVip(input.product_id, input.quantity)
    : input.order_type === ORDER_TYPE.document ? priceDocument(userId, input.product_id, input.quantity, now)
    : (() => { throw badRequest("订单类型不正确"); })();
  const expireAt = now + expireMinutes() * 60_000;
  for (let attempt = 0; ; attempt++) {
    const orderNo = newOrderNo(now);
    try {
      getDb().transaction((tx) => {
        tx.insert(order).values({ ...priced, order_no: orderNo, user_id: userId, order_type: input.order_type, expire_at: expireAt, ip, created_at: now, updated_at: now }).run();
        logPayment({ orderNo, event: PAY_EVENT.created, message: "订单已创建", detail: { order_type: input.order_type, amount: priced.amount, credits: priced.credits, credit_price: priced.credit_price, vip_months: priced.vip_months }, ip }, tx);
      });
      return { order_no: orderNo };
    } catch (e) {
      // 10^12 random numbers per second make a clash all but impossible; one more try settles it.
      if (attempt < 2 && isOrderNoClash(e)) continue;
      throw e;
    }
  }
}

// ── paying ───────────────────────────────────────────────────────────────────────────────────

export interface PayContext { ip: string; origin: string; userAgent: string }

export type PayAnswer =
  | { payment_type: 1; code_url: string }
  | { payment_type: 2; pay_url: string; code_url?: string }
  | { payment_type: 5; status: number };

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|MicroMessenger/i;

function assertPayable(o: OrderRow, now: number) {
  if (o.status === ORDER_STATUS.paid) throw badRequest("订单已支付，无需重复支付");
  if (o.status === ORDER_STATUS.closed) throw badRequest("订单已关闭，请重新下单");
  if (o.expire_at <= now) throw badRequest("订单已过期，请重新下单");
}

const notifyUrl = (origin: string, t: 1 | 2) => {
  const domain = String(setting("system", "domain") ?? "").trim().replace(/\/+$/, "");
  return `${domain || origin}/api/v1/payment/notify/${t === 1 ? "wechatpay" : "alipay"}`;
};

/** POST /order/pay: credits pay at once; WeChat Pay and Alipay start a payment at the gateway. Own pending orders only. */
export async function payOrder(viewer: Viewer, orderNo: string, paymentType: number, ctx: PayContext): Promise<PayAnswer> {
  const now = Date.now();
  const o = orderFor(viewer, orderNo, false);
  assertPayable(o, now);
  if (paymentType === PAY_TYPE.credits) {
    if (o.order_type !== ORDER_TYPE.document || o.credit_price <= 0) throw badRequest(`该订单不能用${creditName()}支付`);
    const r = markPaid(o.order_no, { paymentType: PAY_TYPE.credits, transactionId: "", amount: o.amount, paidAt: now }, { ip: ctx.ip, source: "credits" });
    if (!r.applied) throw badRequest("订单已支付，无需重复支付");
    // A QR code shown before the buyer chose credits must not take money too.
    await closeAtGateways(o.order_no, "paid_with_credits");
    return { payment_type: 5, status: ORDER_STATUS.paid };
  }
  if (!isMoneyPayType(paymentType)) throw badRequest("不支持该支付方式");
  if (!enabledMoneyPayTypes().includes(paymentType)) throw badRequest(`${paymentType === 1 ? "微信支付" : "支付宝"}未开启`);
  if (o.amount <= 0) throw badRequest("订单金额不正确");
  let start: PayStart;
  try {
    start = await gatewayFor(paymentType).start({
      orderNo: o.order_no, amount: o.amount, description: o.product_title || "订单支付", expireAt: o.expire_at,
      clientIp: ctx.ip || undefined, device: MOBILE_UA.test(ctx.userAgent) ? "mobile" : "pc",
      returnUrl: `${ctx.origin}/order?order_no=${o.order_no}`, notifyUrl: notifyUrl(ctx.origin, paymentType),
    });
  } catch (e) {
    const message = e instanceof GatewayError ? e.message : "无法连接支付网关";
    logPayment({ orderNo: o.order_no, paymentType, event: PAY_EVENT.payStart, ok: false, message, detail: e instanceof GatewayError ? e.detail : { error: String(e) }, ip: ctx.ip });
    throw badGateway(`发起支付失败：${message}，请稍后重试`);
  }
  const started = getDb().transaction((tx) => {
    const row = tx.update(order).set({ payment_type: paymentType, updated_at: Date.now() })
      .where(and(eq(order.id, o.id), eq(order.status, ORDER_STATUS.pending))).returning({ id: order.id }).get();
    logPayment({ orderNo: o.order_no, paymentType, event: PAY_EVENT.payStart, ok: true, message: row ? "已在支付网关下单" : "网关已下单，但订单已不是待支付状态", detail: { kind: start.kind }, ip: ctx.ip }, tx);
    return !!row;
  }, { behavior: "immediate" });
  if (!started) {
    // Paid or closed while the gateway answered (another tab, the expiry job): close what was just opened there.
    const current = rowByNo(o.order_no)!;
    if (current.status === ORDER_STATUS.closed) await closeAtGateways(o.order_no, "pay_after_close");
    assertPayable(current, Date.now());
  }
  if (paymentType === 1) return { payment_type: 1, code_url: start.kind === "qr" ? start.codeUrl : start.url };
  return start.kind === "redirect" ? { payment_type: 2, pay_url: start.url } : { payment_type: 2, pay_url: start.codeUrl, code_url: start.codeUrl };
}

// ── status, closing ──────────────────────────────────────────────────────────────────────────

/**
 * GET /order/status: while a money payment is pending it also asks the gateway (at most every
 * 3 s per order), so a lost notification still completes the order.
 */
export async function orderStatus(viewer: Viewer, orderNo: string): Promise<{ status: number; paid_at: number | null }> {
  const o = orderFor(viewer, orderNo, true);
  if (o.status === ORDER_STATUS.pending && isMoneyPayType(o.payment_type) && claimStatusQuery(o.id)) {
    await syncWithGateways(o, "status");
  }
  const now = rowByNo(o.order_no)!;
  return { status: now.status, paid_at: now.paid_at };
}

/** PUT /order/close: the owner closes a pending order, at the gateway first. */
/**
 * Closes a pending order: at the gateway first, and when a gateway will not close, ask it whether
 * the order was paid meanwhile. PUT /order/close is the owner's; PUT /order/system/close passes
 * `admin` so an order administrator closes anyone's, logged as the administrator's act.
 */
export async function closeOrder(viewer: Viewer, orderNo: string, admin?: { username: string }): Promise<{ status: number }> {
  const o = orderFor(viewer, orderNo, !!admin);
  if (o.status === ORDER_STATUS.closed) return { status: ORDER_STATUS.closed };
  if (o.status === ORDER_STATUS.paid) throw badRequest("订单已支付，不能关闭");
  const by = admin ? "admin" : "user";
  if (!(await closeAtGateways(o.order_no, by))) {
    if ((await syncWithGateways(o, `${by}_close`)) === "paid") throw conflict("订单已支付，不能关闭");
  }
  if (!closeLocally(o, by, admin ? `管理员 ${admin.username} 关闭订单` : "用户关闭订单")) {
    const now = rowByNo(o.order_no)!;
    if (now.status === ORDER_STATUS.paid) throw conflict("订单已支付，不能关闭");
  }
  return { status: ORDER_STATUS.closed };
}

// ── admin ────────────────────────────────────────────────────────────────────────────────────

/** DELETE /order: closed orders only — paid ones are the record of money taken, pending ones may still be paid. */
export function deleteOrders(ids: number[]): number {
  return getDb().transaction((tx) => {
    const rows = tx.select({ id: order.id, status: order.status }).from(order).where(inArray(order.id, ids)).all();
    if (!rows.length) throw notFound(ORDER_NOT_FOUND);
    if (rows.some((r) => r.status === ORDER_STATUS.paid)) throw badRequest("已支付的订单不能删除");
    if (rows.some((r) => r.status !== ORDER_STATUS.closed)) throw badRequest("只能删除已关闭的订单");
    tx.delete(order).where(inArray(order.id, rows.map((r) => r.id))).run();
    return rows.length;
  }, { behavior: "immediate" });
}

/** POST /order/system/recharge: credits given by an administrator, recorded as a paid order (type 3, payment 6). */
export function systemRecharge(admin: Viewer & { username: string }, input: { user_id: number; amount: number; remark: string }, ip: string): { order_no: string; balance: number } {
  const target = getDb().select({ id: user.id, username: user.username }).from(user).where(eq(user.id, input.user_id)).get();
  if (!target) throw notFound("用户不存在");
  const now = Date.now();
  const orderNo = newOrderNo(now);
  const name = creditName();
  return getDb().transaction((tx) => {
    const row = tx.insert(order).values({
      order_no: orderNo, user_id: target.id, order_type: ORDER_TYPE.recharge, product_title: `${input.amount} ${name}`, quantity: input.amount,
      credits: input.amount, payment_type: PAY_TYPE.system, status: ORDER_STATUS.paid, paid_at: now, expire_at: now, ip, remark: input.remark,
      created_at: now, updated_at: now,
    }).returning({ id: order.id }).get();
    const { balance } = changeCredits({ userId: target.id, amount: input.amount, kind: "system_recharge", reason: input.remark ? `系统充值：${input.remark}` : "系统充值", refId: row.id }, tx);
    logPayment({
      orderNo, paymentType: PAY_TYPE.system, event: PAY_EVENT.systemRecharge, message: `管理员 ${admin.username} 为 ${target.username} 充值 ${input.amount} ${name}`,
      detail: { admin_id: admin.id, user_id: target.id, credits: input.amount, remark: input.remark }, ip,
    }, tx);
    return { order_no: orderNo, balance };
  }, { behavior: "immediate" });
}

// ── VIP state ────────────────────────────────────────────────────────────────────────────────

export interface VipState { enable: boolean; is_vip: boolean; vip_until: number | null; plan: { id: number; title: string; months: number } | null }

/** GET /user/vip: whether VIP is on, the member's membership, and the plan of their last paid VIP order. */
export function vipStateOf(userId: number, now = Date.now()): VipState {
  const u = getDb().select({ v: user.vip_until }).from(user).where(eq(user.id, userId)).get();
  const last = getDb().select({ product_id: order.product_id, product_title: order.product_title, quantity: order.quantity, vip_months: order.vip_months })
    .from(order).where(and(eq(order.user_id, userId), eq(order.order_type, ORDER_TYPE.vip), eq(order.status, ORDER_STATUS.paid)))
    .orderBy(desc(order.paid_at), desc(order.id)).limit(1).get();
  const plan = last ? planById(last.product_id) : undefined;
  return {
    enable: !!setting<boolean>("vip", "enable"),
    is_vip: isVipAt(u?.v ?? null, now),
    vip_until: u?.v ?? null,
    plan: last ? { id: last.product_id, title: plan?.title ?? last.product_title, months: plan?.months ?? Math.round(last.vip_months / Math.max(1, last.quantity)) } : null,
  };
}
