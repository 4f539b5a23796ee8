import DownloadButton from "#islands/reader/DownloadButton.tsx";
import { creditName, getSettings } from "#src/features/settings/service.ts";
import { Island } from "#src/views/Island.tsx";
import { useRequest } from "#src/views/request.tsx";

export interface DownloadTarget { uuid: string; price: number; ext: string; size: number }

/**
 * Where the reader puts the download action (beside the title and in the end-of-preview notice).
 * The action itself belongs to the downloads feature (islands/DownloadButton.tsx).
 */
export function DownloadSlot({ doc }: { doc: DownloadTarget }) {
  const { user } = useRequest();
  const props = {
    uuid: doc.uuid, price: doc.price, ext: doc.ext, size: doc.size, creditName: creditName(), loggedIn: !!user,
    guestDownload: !!getSettings().download?.enable_guest_download,
  };
  return <div className="reader-download"><Island name="DownloadButton" component={DownloadButton} props={props} /></div>;
}
