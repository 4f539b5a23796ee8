import { z } from "zod";
import { MOBILE_RE } from "#src/lib/format.ts";

// Captcha fields ride along on login and register; checked only when the site switch is on.
const captchaFields = {
  captcha_id: z.string().max(64, "验证码错误").optional(),
  captcha: z.string().max(16, "验证码错误").optional(),
};

export const loginSchema = z.object({
  username: z.string({ error: "请输入登录用户名" }).trim().min(1, "请输入登录用户名").max(64, "用户名不能超过 64 个字符"),
  password: z.string({ error: "请输入密码" }).min(1, "请输入密码").max(128, "密码不能超过 128 个字符"),
  ...captchaFields,
});

/** Letters, digits, underscore and Chinese characters, 2–64 of them. */
export const USERNAME_RE = /^[A-Za-z0-9_\u4e00-\u9fa5]+$/;
const usernameField = z
  .string({ error: "请输入用户名" })
  .trim()
  .min(1, "请输入用户名")
  .min(2, "用户名长度为 2-64 个字符")
  .max(64, "用户名长度为 2-64 个字符")
  .regex(USERNAME_RE, "用户名只能包含字母、数字、下划线和汉字");

const emailField = z.string().trim().max(254, "邮箱不能超过 254 个字符").pipe(z.union([z.literal(""), z.email("请输入正确的邮箱")])).transform((s) => s.toLowerCase());

export const registerSchema = z.object({
  username: usernameField,
  password: z.string({ error: "请输入密码" }).min(1, "请输入密码").min(6, "密码长度为 6-64 个字符").max(64, "密码长度为 6-64 个字符"),
  email: emailField.optional(),
  /** the e-mailed code, required when the site verifies register e-mails */
  code: z.string().trim().max(16, "邮箱验证码错误").optional(),
  ...captchaFields,
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const passwordSchema = z.object({
  id: z.coerce.number().int().optional(),
  old_password: z.string({ error: "请输入旧密码" }).min(1, "请输入旧密码").max(128, "旧密码不正确"),
  new_password: z.string({ error: "请输入新密码" }).min(1, "请输入新密码").min(6, "新密码至少 6 位").max(64, "新密码不能超过 64 位"),
});

export const profileSchema = z.object({
  // The character rule applies only when the name changes (service): older names may predate it.
  username: z.string({ error: "请输入登录用户名" }).trim().min(1, "请输入登录用户名").max(64, "用户名长度为 2-64 个字符").optional(),
  realname: z.string().trim().max(64, "真实姓名不能超过 64 个字符").optional(),
  identity: z.string().trim().max(32, "身份证号不能超过 32 个字符").optional(),
  email: emailField.optional(),
  mobile: z.string().trim().pipe(z.union([z.literal(""), z.string().regex(MOBILE_RE, "请输入正确的手机号")])).optional(),
  address: z.string().trim().max(255, "地址不能超过 255 个字符").optional(),
  signature: z.string().trim().max(255, "签名不能超过 255 个字符").optional(),
});
export type ProfileInput = z.infer<typeof profileSchema>;
