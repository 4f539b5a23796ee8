// Chat message statuses (spec §4: "four finished statuses"): one while the answer is being
// written, then exactly one of the four finished ones.
export const MSG_STATUS = {
  /** the model is writing the answer */
  generating: 0,
  /** the answer is complete */
  done: 1,
  /** the user stopped it (stop button, closed tab or PUT /chat/message/cancel); the partial answer is kept */
  stopped: 2,
  /** the model service failed (bad key, time-out, malformed stream…); `error` says why */
  failed: 3,
  /** refused before any model call: the user's quota was spent */
  refused: 4,
} as const;

export type MsgStatus = (typeof MSG_STATUS)[keyof typeof MSG_STATUS];

export const MSG_STATUS_LABEL: Record<number, string> = { 0: "生成中", 1: "已完成", 2: "已停止", 3: "失败", 4: "超出额度" };

/** Topic categories: AI 对话 and AI 搜索. */
export const TOPIC_CATEGORY = { dialog: 1, search: 2 } as const;
export const TOPIC_CATEGORY_LABEL: Record<number, string> = { 1: "AI 对话", 2: "AI 搜索" };

/** A cited page: reference [n] of an answer is the n-th of these. */
export interface Reference { title: string; uuid: string; page: number; score: number }
