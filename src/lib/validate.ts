import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { badRequest } from "./errors.ts";

/** zValidator whose failure is a 400 with the first issue's Chinese message. */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const msg = issue?.message && /[\u4e00-\u9fa5]/.test(issue.message) ? issue.message : `参数 ${issue?.path.join(".") || ""} 格式不正确`;
      throw badRequest(msg);
    }
  });
