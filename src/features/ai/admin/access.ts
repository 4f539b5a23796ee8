import { grantsOf } from "#src/features/permissions/service.ts";
import type { AppContext } from "#src/http/context.ts";

/**
 * Whether the signed-in user may call an admin API ("METHOD /api/v1/…"). The /admin/ai pages are
 * open to every admin (spec §6), so each screen shows its data only to those holding the API.
 */
export function may(c: AppContext, route: string): boolean {
  const user = c.get("user");
  return !!user && (user.is_root || grantsOf(user.id).keys.has(route));
}

export const ROUTES = {
  llmTest: "POST /api/v1/llm/test",
  configList: "GET /api/v1/config/list",
  configSave: "PUT /api/v1/config",
  messages: "GET /api/v1/chat/message/all",
  messageDetail: "GET /api/v1/chat/message/detail",
  deleteMessages: "DELETE /api/v1/chat/message",
  deleteTopics: "DELETE /api/v1/chat/topic/all",
  stats: "GET /api/v1/chat/stats",
} as const;
