import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document, download } from "#db/schema/documents.ts";
import { order } from "#db/schema/orders.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { requestFullRender } from "#src/features/convert/enqueue.ts";
import { visibleDocument } from "#src/features/documents/status.ts";
import { newOrderNo } from "#src/features/orders/orderNo.ts";
import { hasBought } from "#src/features/orders/ownership.ts";
import { logPayment, PAY_EVENT } from "#src/features/orders/paymentLog.ts";
import { vipCreditPrice } from "#src/features/orders/pricing.ts";
import { ORDER_STATUS, ORDER_TYPE, PAY_TYPE } from "#src/features/orders/types.ts";
import { isVipAt } from "#src/features/vip/membership.ts";
import { creditName, setting } from "#src/features/settings/service.ts";
import { assertNotPunished } from "#src/features/users/punishments/service.ts";
import { PUNISH } from "#src/features/users/punishments/types.ts";
import { badRequest, notFound, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { signDownloadUrl } from "./signing.ts";

const DAY_MS = 86_400_000;
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

/** Start of the Asia/Shanghai calendar day containing `now` (no DST there), as UTC ms. */
export const shanghaiDayStart = (now: number) => Math.floor((now + SHANGHAI_OFFSET_MS) / DAY_MS) * DAY_MS - SHANGHAI_OFFSET_MS;

export type DocRef = { id: number } | { uuid: string };

const DOC_COLUMNS = { id: document.id, uuid: document.uuid, title: document.title, user_id: document.user_id, price: document.price, hash: document.hash, ext: document.ext, size: document.size };
export type DownloadableDoc = { id: number; uuid: string; title: string; user_id: number; price: number; hash: string; ext: string; size: number };

/** A document visitors may download (converted, not in the recycle bin), or 404. */
export function findDownloadable(ref: DocRef): DownloadableDoc {
  const key = "id" in ref ? eq(document.id, ref.id) : eq(document.uuid, ref.uuid);
  const doc = getDb().select(DOC_COLUMNS).from(document).where(and(key, visibleDocument())).get();
  if (!doc) throw notFound("文档不存在或暂不可下载");
  return doc;
}

const vipUntilOf = (userId: number) => getDb().select({ v: user.vip_until }).from(user).where(eq(user.id, userId)).get()?.v ?? null;

/**
 * What this user would pay now in credits. Nothing for the uploader and for whoever bought the
 * document (a paid order: every paid download is one, so a bought document is never charged
 * again); VIPs download free with vip.download_free, else at ceil(price × vip.download_discount).
 */
export function priceFor(userId: number | null, doc: Pick<DownloadableDoc, "id" | "user_id" | "price">, now = Date.now()): number {
  if (doc.price <= 0 || (userId && userId === doc.user_id)) return 0;
  if (!userId) return doc.price;
  if (hasBought(userId, doc.id)) return 0;
  if (isVipAt(vipUntilOf(userId), now)) {
    if (setting<boolean>("vip", "download_free")) return 0;
    return vipCreditPrice(doc.price, Number(setting("vip", "download_discount")));
  }
  return doc.price;
}

/** Downloads a day per user: a VIP's own allowance (vip.times_every_day > 0) replaces the ordinary one. */
function dailyAllowance(userId: number, now: number): number {
  const vip = Number(setting("vip", "times_every_day")) || 0;
  if (vip > 0 && isVipAt(vipUntilOf(userId), now)) return vip;
  return Number(setting("download", "times_every_day")) || 0;
}

function assertWithinDailyLimits(userId: number | null, ip: string, now: number) {
  const today = shanghaiDayStart(now);
  const db = getDb();
  const perUser = userId ? dailyAllowance(userId, now) : 0;
  if (userId && perUser > 0) {
    const n = db.select({ n: count() }).from(download).where(and(eq(download.user_id, userId), gte(download.created_at, today))).get()!.n;
    if (n >= perUser) throw tooManyRequests(`今日下载次数已用完（每天最多 ${perUser} 次），请明天再来`);
  }
  const perIp = Number(setting("download", "times_every_ip")) || 0;
  // Without a known address every visitor would share one counter; the per-user limit still holds.
  if (ip && perIp > 0) {
    const n = db.select({ n: count() }).from(download).where(and(eq(download.ip, ip), gte(download.created_at, today))).get()!.n;
    if (n >= perIp) throw tooManyRequests(`今日下载次数已用完（每个 IP 每天最多 ${perIp} 次），请明天再来`);
  }
}

/** Accounts younger than this earn their uploaders nothing (sign-up credits are not for moving). */
export const INCOME_MIN_ACCOUNT_AGE_MS = 24 * 3600_000;

/**
 * Whether a paid download pays the uploader. Sign-up awards must not be laundered into one account
 * through downloads by fresh accounts made for it: a downloader registered less than a day ago, or
 * from the uploader's own registration or last login address, or downloading from that address,
 * pays the price but the uploader earns nothing from it.
 */
export function earnsIncome(tx: Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0], downloaderId: number, uploaderId: number, ip: string, now: number): boolean {
  const cols = { created_at: user.created_at, register_ip: user.register_ip, last_login_ip: user.last_login_ip };
  const d = tx.select(cols).from(user).where(eq(user.id, downloaderId)).get();
  const u = tx.select(cols).from(user).where(eq(user.id, uploaderId)).get();
  if (!d || !u) return false;
  if (now - d.created_at < INCOME_MIN_ACCOUNT_AGE_MS) return false;
  const uploaderIps = new Set([u.register_ip, u.last_login_ip].filter(Boolean));
  return !uploaderIps.has(d.register_ip) && !uploaderIps.has(ip);
}

export interface DownloadRequest { userId: number | null; ip: string; doc: DocRef; now?: number }

/**
 * Checks everything, charges the price and records the download in one IMMEDIATE transaction:
 * taking the write lock first makes the limit counts and the balance check race-free even across
 * processes, and an error anywhere leaves nothing written. A charged download is a purchase: it
 * records a paid document order (credits) in the same transaction, so the document is the
 * buyer's for good. Answers the signed link and the charge.
 */
export function requestDownload(r: DownloadRequest): { url: string; expires: number; price: number } {
  const now = r.now ?? Date.now();
  const doc = findDownloadable(r.doc);
  if (!r.userId) {
    if (!setting<boolean>("download", "enable_guest_download")) throw unauthorized("请先登录后再下载");
    if (doc.price > 0) throw unauthorized("付费文档请登录后下载");
  } else {
    assertNotPunished(r.userId, PUNISH.DOWNLOAD);
  }
  const db = getDb();
  const charged = db.transaction((tx) => {
    assertWithinDailyLimits(r.userId, r.ip, now);
    const price = priceFor(r.userId, doc, now);
    if (price > 0 && r.userId) {
      const name = creditName();
      const balance = tx.select({ c: user.credit_count }).from(user).where(eq(user.id, r.userId)).get()?.c ?? 0;
      if (balance < price) throw badRequest(`${name}不足：下载需要 ${price} ${name}，当前余额 ${balance} ${name}`);
      const reason = `下载文档《${doc.title}》`;
      changeCredits({ userId: r.userId, amount: -price, kind: "download", reason, refId: doc.id }, tx);
      if (earnsIncome(tx, r.userId, doc.user_id, r.ip, now)) {
        changeCredits({ userId: doc.user_id, amount: price, kind: "download_income", reason: `文档《${doc.title}》被下载`, refId: doc.id }, tx);
      }
      const orderNo = newOrderNo(now);
      tx.insert(order).values({
        order_no: orderNo, user_id: r.userId, order_type: ORDER_TYPE.document, product_id: doc.id, product_title: doc.title.slice(0, 255),
        quantity: 1, credit_price: price, payment_type: PAY_TYPE.credits, status: ORDER_STATUS.paid, paid_at: now, expire_at: now,
        ip: r.ip, remark: "积分下载", created_at: now, updated_at: now,
      }).run();
      logPayment({ orderNo, paymentType: PAY_TYPE.credits, event: PAY_EVENT.paid, message: `积分下载，扣除 ${price} ${name}`, detail: { document_id: doc.id, credits: price }, ip: r.ip }, tx);
    }
    tx.insert(download).values({ user_id: r.userId ?? 0, document_id: doc.id, ip: r.ip, price, created_at: now, updated_at: now }).run();
    tx.update(document).set({ download_count: sql`${document.download_count} + 1` }).where(eq(document.id, doc.id)).run();
    return price;
  }, { behavior: "immediate" });
  // A charged download is a purchase: its full preview is rendered as for any bought document.
  if (charged > 0) requestFullRender(doc.id);
  return { ...signDownloadUrl(doc.uuid, r.userId ?? 0, now), price: charged };
}

export interface MyDownload {
  id: number;
  document: { uuid: string; title: string; ext: string; pages: number; size: number; price: number; available: boolean };
  /** credits paid for this download */
  price: number;
  /** what downloading it again would cost now (0 within the free period or for one's own) */
  redownload_price: number;
  created_at: number;
}

/** A user's downloads, newest first; documents since removed stay listed but unavailable. */
export function listUserDownloads(userId: number, page: number, size: number): { total: number; download: MyDownload[] } {
  const db = getDb();
  const rows = db.select({
    id: download.id, price: download.price, created_at: download.created_at,
    document_id: document.id, owner_id: document.user_id,
    uuid: document.uuid, title: document.title, ext: document.ext, pages: document.pages, size: document.size, doc_price: document.price,
    available: sql<number>`CASE WHEN ${visibleDocument()} THEN 1 ELSE 0 END`,
  }).from(download).innerJoin(document, eq(document.id, download.document_id))
    .where(eq(download.user_id, userId)).orderBy(desc(download.created_at), desc(download.id))
    .limit(size).offset((page - 1) * size).all();
  const now = Date.now();
  const total = db.select({ n: count() }).from(download).where(eq(download.user_id, userId)).get()!.n;
  return {
    total,
    download: rows.map((r) => ({
      id: r.id, price: r.price, created_at: r.created_at,
      redownload_price: priceFor(userId, { id: r.document_id, user_id: r.owner_id, price: r.doc_price }, now),
      document: { uuid: r.uuid, title: r.title, ext: r.ext, pages: r.pages, size: r.size, price: r.doc_price, available: !!r.available },
    })),
  };
}
