import { z } from "zod";

// Addresses are compared and stored lower-cased: the same mailbox must hit the same limits and rows.
export const emailField = z
  .string({ error: "请输入邮箱" })
  .trim()
  .min(1, "请输入邮箱")
  .max(254, "邮箱不能超过 254 个字符")
  .pipe(z.email("请输入正确的邮箱"))
  .transform((s) => s.toLowerCase());

/** Code types of POST /user/email/code (spec §4): 0 register, 2 find password, 3 verify. */
export const CODE_TYPES = [0, 2, 3] as const;
export type EmailCodeType = (typeof CODE_TYPES)[number];

export const emailCodeSchema = z.object({
  email: emailField,
  type: z.coerce
    .number({ error: "验证码类型不正确" })
    .int("验证码类型不正确")
    .refine((n): n is EmailCodeType => (CODE_TYPES as readonly number[]).includes(n), "验证码类型不正确"),
});

// MOREDOC's FindPasswordRequest: email, token, password, captcha, captcha_id.
export const stepOneSchema = z.object({
  email: emailField,
  captcha: z.string().max(16, "验证码错误").optional(),
  captcha_id: z.string().max(64, "验证码错误").optional(),
});

export const stepTwoSchema = z.object({
  email: emailField,
  token: z.string({ error: "重置链接无效，请重新找回密码" }).trim().min(1, "重置链接无效，请重新找回密码").max(128, "重置链接无效，请重新找回密码"),
  password: z.string({ error: "请输入新密码" }).min(6, "新密码至少 6 位").max(128, "新密码不能超过 128 位"),
});

export const testMailSchema = z.object({ email: emailField });
