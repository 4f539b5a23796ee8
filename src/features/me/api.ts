import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { findUserById } from "#src/features/auth/users.ts";
import { MAX_IMAGE_BYTES } from "#src/features/admin/attachment/storage.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { notFound, payloadTooLarge, tooManyRequests, unauthorized } from "#src/lib/errors.ts";
import { hit } from "#src/lib/rateLimit.ts";
import { validate } from "#src/lib/validate.ts";
import { setAvatarFromRequest } from "./avatar.ts";
import { listDynamic } from "./dynamic.ts";

export const meApi = new Hono<AppEnv>();

const dynamicQuery = z.object({
  id: z.coerce.number({ error: "用户 ID 不正确" }).int("用户 ID 不正确").positive("用户 ID 不正确").optional(),
  page: z.coerce.number({ error: "页码不正确" }).int("页码不正确").min(1, "页码不正确").max(10_000, "页码不正确").default(1),
  size: z.coerce.number({ error: "每页数量不正确" }).int("每页数量不正确").min(1, "每页数量不正确").max(50, "每页最多 50 条").default(10),
});

/** A user's activity feed: ?id= for anyone's (public), or one's own without it. */
meApi.get("/api/v1/user/dynamic", validate("query", dynamicQuery), (c) => {
  const q = c.req.valid("query");
  const id = q.id ?? c.get("user")?.id;
  if (!id) throw unauthorized();
  if (!findUserById(id)) throw notFound("用户不存在");
  // Others see only lines about public documents; the owner sees everything.
  return c.json(listDynamic(id, q.page, q.size, c.get("user")?.id ?? null));
});

// The multipart body streams past the global JSON limit; this caps it just above the image limit.
const avatarBody = bodyLimit({ maxSize: MAX_IMAGE_BYTES + 64 * 1024, onError: () => { throw payloadTooLarge("图片大小不能超过 5 MB"); } });

meApi.post("/api/v1/upload/avatar", async (c, next) => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  if (!hit(`avatar:${u.id}`, 20, 3600_000)) throw tooManyRequests("头像更换过于频繁，请稍后再试");
  await next();
}, avatarBody, async (c) => {
  // Streamed to a temp file with a running limit, like every other upload.
  const r = await setAvatarFromRequest(c.get("user")!.id, c.req.raw, clientIp(c));
  return c.json({ message: "头像上传成功", ...r });
});
