// Prices of what members buy, shared by the server (which alone decides what an order costs) and
// the islands (which show the same numbers before ordering). Pure: no server imports, so islands
// may import it. Money is integer fen; credits are integers.
import { discountBadge as badge, formatPrice } from "#src/lib/format.ts";

export interface DiscountTier {
  /** credits bought at least */
  amount: number;
  /** price factor, 0 < discount <= 1 (0.95 = 9.5折) */
  discount: number;
}

/** Most credits one recharge order may buy. */
export const MAX_RECHARGE_CREDITS = 10_000_000;

const TIER_LINE = /^(\d+)\s*:\s*(\d+(?:\.\d+)?|\.\d+)$/;

/**
 * `recharge.recharge_discount`: one `amount:discount` per line, blank lines ignored. A single line
 * that does not parse (amount a positive integer, 0 < discount <= 1) means no tiers at all (spec §5),
 * so a typo never produces a discount nobody meant. Sorted by amount.
 */
export function parseDiscountTiers(text: string | null | undefined): DiscountTier[] {
  const tiers: DiscountTier[] = [];
  for (const raw of String(text ?? "").split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = TIER_LINE.exec(line);
    if (!m) return [];
    const amount = Number(m[1]);
    const discount = Number(m[2]);
    if (!Number.isSafeInteger(amount) || amount <= 0 || !(discount > 0 && discount <= 1)) return [];
    tiers.push({ amount, discount });
  }
  return tiers.sort((a, b) => a.amount - b.amount || a.discount - b.discount);
}

/** The lowest discount among the tiers reached by `quantity` credits; 1 when none is reached. */
export function discountFor(quantity: number, tiers: DiscountTier[]): number {
  let best = 1;
  for (const t of tiers) if (t.amount <= quantity && t.discount < best) best = t.discount;
  return best;
}

export interface RechargeQuote {
  /** what the buyer pays, fen */
  amount: number;
  /** taken off the undiscounted price, fen */
  discount: number;
  /** credits granted */
  credits: number;
  /** the price factor applied (1 = none) */
  rate: number;
}

/**
 * Price of buying `quantity` credits at `exchange` credits per 元: quantity ÷ exchange 元 × the
 * discount, rounded to the nearest fen. 1000 credits at 10 per 元 with "100:0.95" → 9500 fen,
 * 500 fen off. Callers check that quantity is a positive multiple of exchange.
 */
export function rechargeQuote(quantity: number, exchange: number, tiers: DiscountTier[]): RechargeQuote {
  if (!(exchange > 0)) throw new RangeError("credit_exchange must be positive");
  const rate = discountFor(quantity, tiers);
  const full = Math.round((quantity * 100) / exchange);
  const amount = Math.round((quantity * 100 * rate) / exchange);
  return { amount, discount: Math.max(0, full - amount), credits: quantity, rate };
}

/** Whether `quantity` credits can be ordered at `exchange` credits per 元. */
export function validRechargeQuantity(quantity: number, exchange: number): boolean {
  if (!Number.isSafeInteger(quantity) || quantity <= 0 || quantity > MAX_RECHARGE_CREDITS || !(exchange > 0)) return false;
  const periods = quantity / exchange;
  // Float division of an exact multiple (e.g. 3 / 1.5) can land a hair off an integer.
  return Math.abs(periods - Math.round(periods)) < 1e-9 && Math.round(periods) >= 1;
}

/** A paid document bought with money: price (credits) ÷ exchange 元, rounded up to the fen. */
export function documentAmount(priceCredits: number, exchange: number): number {
  if (!(exchange > 0)) throw new RangeError("credit_exchange must be positive");
  // Rounded before ceil so 0.1 × 3 style float noise does not add a fen.
  return Math.ceil(Math.round(((priceCredits * 100) / exchange) * 1e6) / 1e6);
}

/** What a VIP pays in credits for a paid document: ceil(price × discount), never below 0. */
export function vipCreditPrice(price: number, discount: number): number {
  const d = Number.isFinite(discount) ? Math.min(1, Math.max(0, discount)) : 1;
  return Math.max(0, Math.ceil(Math.round(price * d * 1e6) / 1e6));
}

/** VIP plan bought for `quantity` periods: amount and discount (from the original price) in fen. */
export function vipQuote(plan: { price: number; original_price: number; months: number }, quantity: number) {
  return {
    amount: plan.price * quantity,
    discount: Math.max(0, plan.original_price - plan.price) * quantity,
    months: plan.months * quantity,
  };
}

/** Fen as 元 with two decimals: 9500 → "95.00". */
export const formatYuan = (fen: number): string => formatPrice(fen);

/** The tier badge: discount × 10 with one decimal + 折 (0.95 → "9.5折"). */
export const discountBadge = (rate: number): string => badge(rate);
