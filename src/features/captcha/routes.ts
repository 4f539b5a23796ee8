import { Hono } from "hono";
import { z } from "zod";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { tooManyRequests } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { captchaEnabled, issueCaptcha, PURPOSES } from "./service.ts";

export const captchaRoutes = new Hono<AppEnv>();

// Enough for refreshing an unreadable image now and then, far too few to farm challenges.
const PER_IP = 30;
const WINDOW_MS = 60_000;

const query = z.object({ type: z.enum(PURPOSES, { error: "验证码用途不正确" }).optional() });

/**
 * MOREDOC's GET /user/captcha?type=<purpose>: `enable` tells whether that form needs a captcha;
 * a challenge is issued only then (or when no purpose is given).
 */
captchaRoutes.get("/api/v1/user/captcha", validate("query", query), async (c) => {
  const { type: purpose } = c.req.valid("query");
  const enable = purpose ? captchaEnabled(purpose) : true;
  if (!enable) return c.json({ enable: false, id: "", captcha: "", type: "" });
  if (!hit(`captcha:ip:${clientIp(c)}`, PER_IP, WINDOW_MS)) throw tooManyRequests("获取验证码过于频繁，请稍后再试");
  c.header("Cache-Control", "no-store");
  const { image, ...challenge } = issueCaptcha(purpose ?? null);
  return c.json({ enable: true, id: challenge.id, captcha: await image(), type: challenge.type, expires_at: challenge.expires_at });
});
