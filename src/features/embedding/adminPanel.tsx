import type { ReactNode } from "react";
import { may, ROUTES } from "#src/features/ai/admin/access.ts";
import { listConfig } from "#src/features/settings/service.ts";
import type { AppContext } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminEmbeddingSettings from "#islands/embedding/AdminEmbeddingSettings.tsx";
import AdminEmbeddingStatus from "#islands/embedding/AdminEmbeddingStatus.tsx";
import { EMBEDDING_PROVIDERS } from "./presets.ts";
import { embeddingStatus, listFailures } from "./status.ts";

// The body of /admin/ai/embedding below the retrieval summary: status (with 重建索引 and failures)
// for admins holding the embedding APIs, and the settings form for those who may edit settings.

export const EMBEDDING_ROUTES = {
  status: "GET /api/v1/embedding/status",
  test: "POST /api/v1/embedding/test",
  rebuild: "POST /api/v1/embedding/rebuild",
  failed: "GET /api/v1/embedding/failed",
  retry: "POST /api/v1/embedding/retry",
} as const;

export function embeddingPanel(c: AppContext): ReactNode {
  const canEdit = may(c, ROUTES.configList) && may(c, ROUTES.configSave);
  const canTest = may(c, EMBEDDING_ROUTES.test);
  const canStatus = may(c, EMBEDDING_ROUTES.status) && may(c, EMBEDDING_ROUTES.failed);
  return (
    <>
      {canStatus ? (
        <Island name="AdminEmbeddingStatus" component={AdminEmbeddingStatus} props={{
          status: embeddingStatus(), failures: listFailures({ page: 1, size: 20 }),
          canRebuild: may(c, EMBEDDING_ROUTES.rebuild), canRetry: may(c, EMBEDDING_ROUTES.retry),
        }} />
      ) : null}
      {canEdit || canTest ? (
        <Island name="AdminEmbeddingSettings" component={AdminEmbeddingSettings} props={{ items: canEdit ? listConfig(["embedding"]) : [], providers: EMBEDDING_PROVIDERS, canTest }} />
      ) : null}
    </>
  );
}
