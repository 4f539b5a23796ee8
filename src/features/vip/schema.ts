import { z } from "zod";
import { enableField, sortField, titleField, updateOf } from "#src/features/admin/crud/schema.ts";

// VIP plans as the admin edits them (/admin/user/vip). Prices are integer fen.
const MAX_PRICE_FEN = 100_000_000;

const fen = (label: string, min: number) =>
  z.number({ error: `${label}必须是数字（单位：分）` }).int(`${label}必须是整数（单位：分）`)
    .min(min, min > 0 ? `${label}必须大于 0` : `${label}不能小于 0`).max(MAX_PRICE_FEN, `${label}不能超过 ${MAX_PRICE_FEN / 100} 元`);

export const vipPlanCreate = z.object({
  title: titleField(64),
  months: z.number({ error: "月数必须是数字" }).int("月数必须是整数").min(1, "月数至少为 1").max(120, "月数不能超过 120"),
  price: fen("价格", 1),
  original_price: fen("原价", 0).optional(),
  benefits: z.string({ error: "权益说明必须是文本" }).max(2000, "权益说明不能超过 2000 个字符").optional(),
  enable: enableField.optional(),
  sort: sortField.optional(),
});

export const vipPlanUpdate = updateOf(vipPlanCreate);
