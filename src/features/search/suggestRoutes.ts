import { Hono } from "hono";
import { z } from "zod";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { tooManyRequests } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { suggestArticleTitles, suggestTitles } from "./suggest.ts";

// Typing sends a request every ~150 ms at most; this leaves room for fast typists and several tabs.
const LIMIT = 60;
const WINDOW_MS = 10_000;

const suggestQuery = z.object({
  wd: z.string().default(""),
  type: z.coerce.number({ error: "搜索类型不正确" }).int("搜索类型不正确").min(0, "搜索类型不正确").max(1, "搜索类型不正确").default(0),
});

export const searchSuggestRoutes = new Hono<AppEnv>();

searchSuggestRoutes.get("/api/v1/search/suggest", validate("query", suggestQuery), async (c) => {
  const ip = clientIp(c);
  if (ip && !hit(`suggest:ip:${ip}`, LIMIT, WINDOW_MS)) throw tooManyRequests("搜索过于频繁，请稍后再试");
  const { wd, type } = c.req.valid("query");
  const suggest = type === 1 ? await suggestArticleTitles(wd) : await suggestTitles(wd);
  c.header("Cache-Control", "public, max-age=15");
  return c.json({ suggest });
});
