import { VipIcon } from "#islands/commerce/VipIcon.tsx";
import { getSettings } from "#src/features/settings/service.ts";

/** The VIP mark beside a name, for a member whose VIP has not ended; nothing while VIP is switched off. */
export function VipBadge({ until, size }: { until: number | null | undefined; size?: number }) {
  const s = getSettings().vip;
  if (!s?.enable || !until || until <= Date.now()) return null;
  return <VipIcon icon={String(s.icon || "")} size={size} />;
}
