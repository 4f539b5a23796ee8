import { Hono } from "hono";
import { z } from "zod";
import { adminApi } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { validate } from "#src/lib/validate.ts";
import { enabledLanguages } from "#src/features/documents/languages.ts";
import { GROUP_BY_NAME } from "./definitions.ts";
import { creditName, getSettings, listConfig, publicSettings, updateConfig } from "./service.ts";

export const settingsRoutes = new Hono<AppEnv>();

/** Public settings groups plus `language`: the enabled document languages (spec §3), code and name. */
settingsRoutes.get("/api/v1/settings", (c) => c.json({ ...publicSettings(), language: enabledLanguages() }));

/** Recharge tiers parsed from "amount:discount" lines; a parse failure yields no tiers (spec §5). */
export function parseDiscounts(text: string): { amount: number; discount: number }[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const tiers: { amount: number; discount: number }[] = [];
  for (const l of lines) {
    const m = /^(\d+(?:\.\d+)?)\s*[:：]\s*(\d+(?:\.\d+)?)$/.exec(l);
    if (!m) return [];
    const amount = Number(m[1]);
    const discount = Number(m[2]);
    if (!(discount > 0 && discount <= 1)) return [];
    tiers.push({ amount, discount });
  }
  return tiers.sort((a, b) => a.amount - b.amount);
}

settingsRoutes.get("/api/v1/settings/recharge", (c) => {
  const r = getSettings().recharge;
  return c.json({
    enable: !!r.enable,
    credit_name: creditName(),
    credit_exchange: Number(r.credit_exchange),
    recharge_discount: String(r.recharge_discount),
    tiers: parseDiscounts(String(r.recharge_discount)),
  });
});

const categoryQuery = z.object({ category: z.union([z.string(), z.array(z.string())]).optional() });

settingsRoutes.get("/api/v1/config/list", adminApi, validate("query", categoryQuery), (c) => {
  const cats = c.req.queries("category")?.flatMap((s) => s.split(",")).filter(Boolean);
  for (const cat of cats ?? []) if (!GROUP_BY_NAME.has(cat)) return c.json({ code: "bad_request", message: `未知的配置分组：${cat}` }, 400);
  return c.json({ config: listConfig(cats) });
});

const item = z.object({
  category: z.string({ error: "缺少配置分组" }).min(1, "缺少配置分组").max(64),
  name: z.string({ error: "缺少配置名称" }).min(1, "缺少配置名称").max(64),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});
const updateBody = z.object({ config: z.array(item, { error: "config 必须是配置项数组" }).min(1, "没有要保存的配置").max(500, "一次最多保存 500 项") });

settingsRoutes.put("/api/v1/config", adminApi, validate("json", updateBody), (c) => {
  updateConfig(c.req.valid("json").config);
  return c.json({ message: "保存成功" });
});
