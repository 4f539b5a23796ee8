// Punishment types (spec §3) and the sentence a punished user reads for each.

export const PUNISHMENT_TYPES = [
  { value: 1, label: "禁用账号" },
  { value: 2, label: "禁止评论" },
  { value: 3, label: "禁止上传" },
  { value: 4, label: "禁止下载" },
  { value: 5, label: "禁止收藏" },
  { value: 6, label: "禁止发布文章" },
] as const;

export const PUNISH = { DISABLE: 1, COMMENT: 2, UPLOAD: 3, DOWNLOAD: 4, FAVORITE: 5, ARTICLE: 6 } as const;
export type PunishmentType = (typeof PUNISH)[keyof typeof PUNISH];

export const BANNED_TEXT: Record<number, string> = {
  1: "您的账号已被禁用",
  2: "您已被禁止发表评论",
  3: "您已被禁止上传文档",
  4: "您已被禁止下载文档",
  5: "您已被禁止收藏",
  6: "您已被禁止发布文章",
};
