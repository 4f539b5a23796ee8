import { Hono } from "hono";
import QRCode from "qrcode";
import { findUserById } from "#src/features/auth/users.ts";
import { visibleDocumentById } from "#src/features/reader/access.ts";
import { creditName } from "#src/features/settings/service.ts";
import { renderNotFound } from "#src/features/site/errorPages.tsx";
import type { AppContext, AppEnv } from "#src/http/context.ts";
import { AppError } from "#src/lib/errors.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { joinVipRoutes } from "#src/features/vip/pages.tsx";
import { getOrderFor } from "./service.ts";
import { OrderView } from "./views/OrderView.tsx";

/**
 * The member pages of commerce: the order page /order?order_no= (spec §2, §4: every new recharge or
 * VIP order lands here) with the WeChat QR code it shows, and /joinvip. Per user, never page-cached.
 * Someone else's order is the 404 page.
 */
export const orderPageRoutes = new Hono<AppEnv>();
orderPageRoutes.route("/", joinVipRoutes);

const ORDER_NO = /^[0-9A-Za-z_-]{1,64}$/;
// WeChat Pay Native answers code_url as weixin://wxpay/bizpayurl?pr=…; nothing else is drawn.
const CODE_URL = /^weixin:\/\/[\x21-\x7e]{1,500}$/;

const toLogin = (c: AppContext) => {
  const url = new URL(c.req.url);
  return c.redirect(`/login?redirect=${encodeURIComponent(url.pathname + url.search)}`, 302);
};

/** The order when this viewer may see it (owner, or an administrator allowed to), else undefined. */
function visibleOrder(c: AppContext, orderNo: string) {
  const u = c.get("user");
  if (!u || !ORDER_NO.test(orderNo)) return undefined;
  try {
    return getOrderFor(u, orderNo);
  } catch (e) {
    if (e instanceof AppError && (e.status === 404 || e.status === 403)) return undefined;
    throw e;
  }
}

/** Where the document of a document order is read, or "" when it is gone. */
function documentHref(id: number): string {
  try {
    return `/document/${visibleDocumentById(id).uuid}`;
  } catch {
    return "";
  }
}

function links(type: number, docHref: string, name: string) {
  if (type === 1) {
    const back = docHref || "/";
    return { next: { href: back, label: docHref ? "返回文档下载" : "返回首页" }, again: { href: back, label: docHref ? "返回文档" : "返回首页" } };
  }
  if (type === 2) return { next: { href: "/me/vip", label: "查看我的会员" }, again: { href: "/joinvip", label: "重新选择套餐" } };
  return { next: { href: "/me", label: `查看我的${name}` }, again: { href: "/me?recharge=1", label: "重新充值" } };
}

orderPageRoutes.get("/order", async (c) => {
  const u = c.get("user");
  if (!u) return toLogin(c);
  const o = visibleOrder(c, String(c.req.query("order_no") ?? "").trim());
  if (!o) return renderNotFound(c);
  const name = creditName();
  const docHref = o.order_type === 1 ? documentHref(o.product_id) : "";
  const mine = o.user_id === u.id;
  const pay = {
    orderNo: o.order_no, amount: o.amount, creditPrice: o.credit_price, status: o.status, expireAt: o.expire_at, now: Date.now(),
    payTypes: mine ? o.pay_types : [], creditName: name, balance: mine ? (findUserById(u.id)?.credit_count ?? 0) : 0,
    ...links(o.order_type, docHref, name), ...(mine ? {} : { readOnly: true }),
  };
  return renderPage(c, <DefaultLayout><OrderView order={o} productHref={docHref} pay={pay} creditName={name} /></DefaultLayout>, { meta: { title: "订单支付", noindex: true } });
});

/**
 * The WeChat Pay QR code as SVG, drawn here from the code_url that POST /order/pay just gave the
 * page: only for the viewer's own pending order, and only weixin:// addresses.
 */
orderPageRoutes.get("/order/qrcode", async (c) => {
  const notFound = () => c.text("二维码不存在", 404, { "Cache-Control": "no-store" });
  const o = visibleOrder(c, String(c.req.query("order_no") ?? ""));
  const codeUrl = String(c.req.query("code_url") ?? "");
  if (!o || o.user_id !== c.get("user")?.id || o.status !== 1 || !CODE_URL.test(codeUrl)) return notFound();
  const svg = await QRCode.toString(codeUrl, { type: "svg", errorCorrectionLevel: "M", margin: 1, color: { dark: "#000000", light: "#ffffff" } });
  return c.body(svg, 200, { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" });
});
