import { and, eq, isNull, type SQL } from "drizzle-orm";
import { document } from "#db/schema/documents.ts";

/** Conversion and review statuses of spec §4. */
export const DOC_STATUS = {
  pending: 0,
  converting: 1,
  converted: 2,
  failed: 3,
  disabled: 4,
  reconvert: 5,
  pendingReview: 6,
  rejected: 7,
} as const;

export const DOC_STATUS_LABEL: Record<number, string> = {
  0: "待转换", 1: "转换中", 2: "转换成功", 3: "转换失败", 4: "已禁用", 5: "重新转换", 6: "待审核", 7: "审核拒绝",
};

/** What visitors may see: converted and not in the recycle bin. */
export const visibleDocument = (): SQL => and(eq(document.status, DOC_STATUS.converted), isNull(document.deleted_at))!;
