import { Hono } from "hono";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { signToday, todaySign } from "./service.ts";

export const signRoutes = new Hono<AppEnv>();

signRoutes.get("/api/v1/user/sign", (c) => {
  const me = c.get("user");
  if (!me) throw unauthorized();
  return c.json(todaySign(me.id) ?? { id: 0, award: 0, sign_at: 0 });
});

signRoutes.put("/api/v1/user/sign", (c) => {
  const me = c.get("user");
  if (!me) throw unauthorized();
  return c.json(signToday(me.id, clientIp(c)));
});
