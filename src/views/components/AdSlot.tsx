import { adsFor } from "#src/features/site/layoutData.ts";
import type { SessionUser } from "#src/features/auth/sessions.ts";
import { Personal } from "../personal.tsx";
import { useRequest } from "../request.tsx";

/** VIPs see no ads: an ad slot is the same for every other member and every visitor. */
export const vipVary = (user: SessionUser | null) => (user?.is_vip ? "vip" : "");

/** Ads of one position (spec §3 positions). Admin-entered HTML; CSP keeps its scripts from running. */
export function AdSlot(p: { position: string; className?: string }) {
  return <Personal vary={vipVary}><Ads {...p} /></Personal>;
}

function Ads({ position, className }: { position: string; className?: string }) {
  const { user } = useRequest();
  if ((user as { is_vip?: boolean } | null)?.is_vip) return null;
  const ads = adsFor([position]);
  if (!ads.length) return null;
  return (
    <div className={`ad-slot ad-${position.replace(/_/g, "-")}${className ? " " + className : ""}`} data-position={position}>
      {ads.map((a) => <div key={a.id} className="ad-item" dangerouslySetInnerHTML={{ __html: a.content }} />)}
    </div>
  );
}
