import DownloadButton from "#islands/reader/DownloadButton.tsx";
import { priceFor } from "#src/features/downloads/service.ts";
import { hasBought } from "#src/features/orders/ownership.ts";
import { documentAmount } from "#src/features/orders/pricing.ts";
import { enabledMoneyPayTypes } from "#src/features/payments/registry.ts";
import { creditName, getSettings } from "#src/features/settings/service.ts";
import { getManifest } from "#src/views/assets.tsx";
import { Island } from "#src/views/Island.tsx";
import { useRequest } from "#src/views/request.tsx";
import { formatBytes } from "#src/lib/format.ts";

export interface DownloadTarget { id: number; uuid: string; title: string; user_id: number; price: number; ext: string; size: number }

/** Why a paid document costs this member nothing, shown in place of its price. */
function freeNote(userId: number, isVip: boolean, doc: DownloadTarget): string {
  if (userId === doc.user_id) return "我上传的";
  if (hasBought(userId, doc.id)) return "已购买";
  return isVip ? "VIP 免费" : "免费";
}

/**
 * Where the reader puts the download action (beside the title and in the end-of-preview notice).
 * A paid document the member has not bought also offers 购买 (credits at once, or money through
 * /order); once bought it downloads free for good. Visitors' pages are cached, so what depends on
 * the member is decided only for signed-in requests, which always render fresh.
 */
export function DownloadSlot({ doc }: { doc: DownloadTarget }) {
  const { user } = useRequest();
  const s = getSettings();
  const name = creditName();
  const mine = user && doc.price > 0 ? priceFor(user.id, doc) : doc.price;
  const exchange = Number(s.recharge?.credit_exchange) || 0;
  const props = {
    uuid: doc.uuid, price: mine, ext: doc.ext, sizeText: formatBytes(doc.size), creditName: name, loggedIn: !!user,
    guestDownload: !!s.download?.enable_guest_download,
    note: user && doc.price > 0 && mine === 0 ? freeNote(user.id, !!user.is_vip, doc) : undefined,
    buy: user && mine > 0 ? {
      url: getManifest().islands.BuyDialog ?? "", documentId: doc.id, title: doc.title, credits: mine,
      amount: exchange > 0 && enabledMoneyPayTypes().length ? documentAmount(doc.price, exchange) : 0,
    } : undefined,
  };
  return <div className="reader-download"><Island name="DownloadButton" component={DownloadButton} props={props} /></div>;
}
