import { Hono } from "hono";
import { adminApi } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { AppError, badRequest } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { EmbeddingError } from "./errors.ts";
import { failureQuery, embeddingTestBody, retryBody } from "./schema.ts";
import { embeddingStatus, forceRebuild, listFailures, retryFailures } from "./status.ts";
import { runEmbeddingTest } from "./testConnection.ts";

// The 向量模型 APIs (/admin/ai/embedding); each is a permission of category "embedding". The
// settings themselves go through the generic GET /config/list and PUT /config.
export const embeddingRoutes = new Hono<AppEnv>();

embeddingRoutes.get("/api/v1/embedding/status", adminApi, (c) => c.json(embeddingStatus()));

const CONFIG_CODES = new Set(["embedding_config", "embedding_model_missing", "embedding_dimensions"]);

embeddingRoutes.post("/api/v1/embedding/test", adminApi, validate("json", embeddingTestBody), async (c) => {
  try {
    return c.json(await runEmbeddingTest(c.req.valid("json")));
  } catch (err) {
    if (!(err instanceof EmbeddingError)) throw err;
    // A setting the admin must fix is their request's fault (400); the provider's answer is the gateway's (502/504).
    const status = CONFIG_CODES.has(err.code) ? 400 : err.code === "embedding_timeout" ? 504 : 502;
    return c.json({ code: err.code, message: err.message }, status);
  }
});

embeddingRoutes.post("/api/v1/embedding/rebuild", adminApi, (c) => {
  const space = forceRebuild();
  if (!space) throw badRequest("请先启用向量检索并填写模型设置后再重建索引");
  return c.json({ message: "已开始重建向量索引，完成前继续使用当前索引", space_id: space.id });
});

embeddingRoutes.get("/api/v1/embedding/failed", adminApi, validate("query", failureQuery), (c) => c.json(listFailures(c.req.valid("query"))));

embeddingRoutes.post("/api/v1/embedding/retry", adminApi, validate("json", retryBody), (c) => {
  const n = retryFailures(c.req.valid("json").id);
  if (!n) throw new AppError(404, "not_found", "没有需要重试的失败文档");
  return c.json({ message: `已重新排队 ${n} 篇文档`, queued: n });
});
