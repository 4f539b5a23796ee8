import { discountBadge } from "#src/features/orders/pricing.ts";
import { getSettings } from "#src/features/settings/service.ts";

/** What VIP grants on this site, from the vip settings, as short lines for /joinvip and /me/vip. */
export function vipPerks(): string[] {
  const s = getSettings();
  const v = s.vip;
  const perks = ["浏览全站无广告"];
  const discount = Number(v.download_discount);
  if (v.download_free) perks.push("付费文档免费下载");
  else if (discount >= 0 && discount < 1) perks.push(discount === 0 ? "付费文档免费下载" : `付费文档下载享 ${discountBadge(discount)}`);
  const times = Number(v.times_every_day) || 0;
  if (times > 0) perks.push(`每天可下载 ${times} 次`);
  if (s.llm?.enable) {
    const q = Number(v.ai_questions_per_day);
    if (q === -1) perks.push("AI 助手提问不限次数");
    else if (q > 0) perks.push(`AI 助手每天可提问 ${q} 次`);
  }
  perks.push("专属 VIP 身份标识");
  return perks;
}
