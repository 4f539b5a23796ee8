// Comment statuses are the generic statuses of spec §4; pure, so islands import them too.
export const COMMENT_STATUS = { normal: 0, disabled: 1, review: 2, rejected: 3, ignored: 4 } as const;

export const COMMENT_STATUS_OPTIONS = [
  { value: 0, label: "正常" },
  { value: 1, label: "已禁用" },
  { value: 2, label: "待审核" },
  { value: 3, label: "已拒绝" },
  { value: 4, label: "已忽略" },
] as const;

export const commentStatusLabel = (status: number) => COMMENT_STATUS_OPTIONS.find((s) => s.value === status)?.label ?? "未知";

export const COMMENT_SORTS = ["new", "hot"] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
export const asSort = (v: string | undefined | null): CommentSort => (v === "hot" ? "hot" : "new");
