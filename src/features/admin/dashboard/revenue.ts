import { getSqlite } from "#db/client.ts";

// Revenue per Asia/Shanghai day for the dashboard. Money is what buyers paid in money: paid orders
// by their paid time, leaving out payment_type 5 (paid with credits: the amount is the document's
// money price, nothing was received) and 6 (system recharge by an administrator: nothing paid).

const DAY = 86_400_000;
const SHANGHAI = 8 * 3_600_000; // UTC+8 all year, no daylight saving
const NO_MONEY = "(5, 6)";

export interface RevenueDay {
  /** "MM-DD" */
  day: string;
  /** money received that day, in fen */
  amount: number;
  /** orders paid that day (any payment type) */
  paid: number;
  /** orders created that day (any state) */
  created: number;
}

export interface Revenue {
  days: RevenueDay[];
  /** money received over the whole range, in fen */
  amount: number;
  paid: number;
  created: number;
  /** orders waiting for payment right now */
  pending: number;
}

/** The last `days` Asia/Shanghai days, today included; days without orders are zeros. */
export function revenue(days = 30, now = Date.now()): Revenue {
  const today = Math.floor((now + SHANGHAI) / DAY);
  const first = today - days + 1;
  const since = first * DAY - SHANGHAI;
  const db = getSqlite();
  const byDay = new Map<number, { amount: number; paid: number; created: number }>();
  const slot = (d: number) => {
    let s = byDay.get(d);
    if (!s) byDay.set(d, (s = { amount: 0, paid: 0, created: 0 }));
    return s;
  };
  const paidRows = db.query(`select (paid_at + ?1) / ?2 as d, count(*) as n, coalesce(sum(case when payment_type not in ${NO_MONEY} then amount else 0 end), 0) as fen
    from "order" where status = 2 and paid_at >= ?3 group by d`).all(SHANGHAI, DAY, since) as { d: number; n: number; fen: number }[];
  for (const r of paidRows) Object.assign(slot(r.d), { paid: r.n, amount: r.fen });
  const createdRows = db.query(`select (created_at + ?1) / ?2 as d, count(*) as n from "order" where created_at >= ?3 group by d`).all(SHANGHAI, DAY, since) as { d: number; n: number }[];
  for (const r of createdRows) slot(r.d).created = r.n;
  const list = Array.from({ length: days }, (_, i) => {
    const d = first + i;
    const date = new Date(d * DAY);
    const s = byDay.get(d) ?? { amount: 0, paid: 0, created: 0 };
    return { day: `${String(date.getUTCMonth() + 1).padStart(2, "0")}-${String(date.getUTCDate()).padStart(2, "0")}`, ...s };
  });
  const pending = (db.query(`select count(*) as n from "order" where status = 1 and expire_at > ?`).get(now) as { n: number }).n;
  return {
    days: list,
    amount: list.reduce((n, d) => n + d.amount, 0),
    paid: list.reduce((n, d) => n + d.paid, 0),
    created: list.reduce((n, d) => n + d.created, 0),
    pending,
  };
}
