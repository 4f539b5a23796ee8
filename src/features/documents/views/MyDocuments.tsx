import UploadManager from "#islands/upload/UploadManager.tsx";
import type { MyDoc } from "#islands/upload/UploadEditDialog.tsx";
import { creditName } from "#src/features/settings/service.ts";
import { Island } from "#src/views/Island.tsx";
import { categoryOptions } from "../categories.ts";
import { enabledLanguages } from "../languages.ts";
import { listDocuments } from "../service.ts";

const PAGE_SIZE = 20;

/** Body of /me/document: the user's uploads in every status (not the recycle bin). */
export function MyDocuments({ userId }: { userId: number }) {
  const first = listDocuments({ page: 1, size: PAGE_SIZE, status: [], user_id: userId }, "owner");
  const props = {
    userId, pageSize: PAGE_SIZE, categories: categoryOptions(), languages: enabledLanguages(), creditName: creditName(),
    initial: { total: first.total, rows: first.document as unknown as MyDoc[] },
  };
  return <Island name="UploadManager" component={UploadManager} props={props} />;
}
