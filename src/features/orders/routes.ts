import { Hono } from "hono";
import { idsFrom } from "#src/features/admin/crud/routes.ts";
import { withDateRange } from "#src/features/admin/crud/schema.ts";
import { GatewayError } from "#src/features/payments/gateway.ts";
import { wechatPayCertificates } from "#src/features/payments/wechatpay/certificates.ts";
import { adminApi } from "#src/http/adminOnly.ts";
import { clientIp, type AppContext, type AppEnv } from "#src/http/context.ts";
import { badGateway, badRequest, unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { handleNotify } from "./notify.ts";
import { listPaymentLog } from "./paymentLog.ts";
import { adminListQuery, closeBody, createBody, orderNoQuery, paymentLogQuery, payBody, systemRechargeBody, userOrderQuery, vipOrderQuery } from "./schema.ts";
import {
  closeOrder, createOrder, deleteOrders, getOrderFor, listOrders, listUserOrders, orderStatus, payOrder, systemRecharge, vipStateOf,
} from "./service.ts";
import { ORDER_TYPE } from "./types.ts";

/** The order API (/api/v1/order*, /user/order, /user/vip*, /payment/*, /wechatpay/cert). */
export const orderRoutes = new Hono<AppEnv>();

const me = (c: AppContext) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

/** The site's own origin as the browser reached it (for Alipay's return URL and the notify URL fallback). */
const originOf = (c: AppContext) => new URL(c.req.url).origin;

orderRoutes.post("/api/v1/order", validate("json", createBody), (c) => {
  const u = me(c);
  return c.json(createOrder(u.id, c.req.valid("json"), clientIp(c)));
});

orderRoutes.get("/api/v1/order", validate("query", orderNoQuery), (c) => c.json(getOrderFor(me(c), c.req.valid("query").order_no)));

orderRoutes.get("/api/v1/order/status", validate("query", orderNoQuery), async (c) => {
  const answer = await orderStatus(me(c), c.req.valid("query").order_no);
  c.header("Cache-Control", "no-store");
  return c.json(answer);
});

orderRoutes.post("/api/v1/order/pay", validate("json", payBody), async (c) => {
  const u = me(c);
  const b = c.req.valid("json");
  return c.json(await payOrder(u, b.order_no, b.payment_type, { ip: clientIp(c), origin: originOf(c), userAgent: c.req.header("user-agent") ?? "" }));
});

orderRoutes.put("/api/v1/order/close", validate("json", closeBody), async (c) => c.json(await closeOrder(me(c), c.req.valid("json").order_no)));

orderRoutes.put("/api/v1/order/system/close", adminApi, validate("json", closeBody), async (c) => {
  const admin = me(c);
  return c.json(await closeOrder(admin, c.req.valid("json").order_no, admin));
});

orderRoutes.delete("/api/v1/order", adminApi, async (c) => {
  const deleted = deleteOrders(await idsFrom(c));
  return c.json({ message: "删除成功", deleted });
});

orderRoutes.get("/api/v1/order/list", adminApi, validate("query", adminListQuery), (c) => c.json(listOrders(withDateRange(c.req.valid("query")))));

orderRoutes.post("/api/v1/order/system/recharge", adminApi, validate("json", systemRechargeBody), (c) =>
  c.json(systemRecharge(me(c), c.req.valid("json"), clientIp(c))));

orderRoutes.get("/api/v1/user/order", validate("query", userOrderQuery), (c) => c.json(listUserOrders(me(c).id, c.req.valid("query"))));

orderRoutes.get("/api/v1/user/vip", (c) => c.json(vipStateOf(me(c).id)));

orderRoutes.get("/api/v1/user/vip/order", validate("query", vipOrderQuery), (c) =>
  c.json(listUserOrders(me(c).id, { ...c.req.valid("query"), order_type: ORDER_TYPE.vip })));

orderRoutes.get("/api/v1/payment/log", adminApi, validate("query", paymentLogQuery), (c) => c.json(listPaymentLog(c.req.valid("query"))));

orderRoutes.get("/api/v1/wechatpay/cert", adminApi, async (c) => {
  try {
    return c.json(await wechatPayCertificates());
  } catch (e) {
    // Settings that are missing or unreadable are the admin's to fix; anything else is the gateway's answer.
    if (e instanceof GatewayError) throw "missing" in e.detail ? badRequest(e.message) : badGateway(`获取微信支付证书失败：${e.message}`);
    throw e;
  }
});

// Gateways post here without a session; only a verified notification changes anything.
orderRoutes.post("/api/v1/payment/notify/wechatpay", async (c) => handleNotify(1, c.req.raw.headers, await c.req.text(), clientIp(c)));
orderRoutes.post("/api/v1/payment/notify/alipay", async (c) => handleNotify(2, c.req.raw.headers, await c.req.text(), clientIp(c)));
