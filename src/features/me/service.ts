import { and, asc, desc, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { creditLog, group, userGroup } from "#db/schema/accounts.ts";
import { findUserById } from "#src/features/auth/users.ts";
import { todaySign } from "#src/features/sign/service.ts";
import { notFound } from "#src/lib/errors.ts";
import { listDynamic } from "./dynamic.ts";

export interface GroupTag { id: number; title: string; color: string }

/** Groups shown beside a user's name: only those marked is_display, in the admin's order. */
export const displayGroups = (userId: number): GroupTag[] =>
  getDb().select({ id: group.id, title: group.title, color: group.color }).from(userGroup)
    .innerJoin(group, eq(group.id, userGroup.group_id))
    .where(and(eq(userGroup.user_id, userId), eq(group.is_display, true)))
    .orderBy(asc(group.sort), asc(group.id)).all();

export const recentCredits = (userId: number, limit = 10) =>
  getDb().select({ id: creditLog.id, amount: creditLog.amount, balance: creditLog.balance, reason: creditLog.reason, created_at: creditLog.created_at })
    .from(creditLog).where(eq(creditLog.user_id, userId)).orderBy(desc(creditLog.created_at), desc(creditLog.id)).limit(limit).all();
export type CreditRow = ReturnType<typeof recentCredits>[number];

/** Public counters of a user (spec §3 user fields plus the homepage counts). */
export const countsOf = (u: { doc_count: number; article_count: number; favorite_count: number; comment_count: number }) => [
  { key: "doc_count", label: "文档", value: u.doc_count },
  { key: "article_count", label: "文章", value: u.article_count },
  { key: "favorite_count", label: "收藏", value: u.favorite_count },
  { key: "comment_count", label: "评论", value: u.comment_count },
];

/** Everything the personal centre's overview shows, read in one go. */
export function overviewOf(userId: number) {
  const u = findUserById(userId);
  if (!u) throw notFound("用户不存在");
  return {
    user: u,
    groups: displayGroups(userId),
    signed: !!todaySign(userId),
    credits: recentCredits(userId),
    dynamic: listDynamic(userId, 1, 10, userId).dynamic,
  };
}

/** The public homepage's data for a user row already looked up (unknown ids are the caller's 404). */
export const homepageOf = (u: NonNullable<ReturnType<typeof findUserById>>) => ({ user: u, groups: displayGroups(u.id) });
