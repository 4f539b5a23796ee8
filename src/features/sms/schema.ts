import { z } from "zod";
import { MOBILE_RE } from "#src/lib/format.ts";
import { dateRangeQuery, pageQuery } from "#src/features/admin/crud/schema.ts";

// Spec §5: starts with 1, second digit 3–9, eleven digits.
const mobile = z.string({ error: "请输入手机号码" }).trim().min(1, "请输入手机号码").regex(MOBILE_RE, "请输入正确的手机号码");
const code = z.string({ error: "请输入短信验证码" }).trim().min(1, "请输入短信验证码").regex(/^\d{4,8}$/, "验证码错误");
const password = (label: string) => z.string({ error: `请输入${label}` }).min(6, `${label}至少 6 位`).max(128, `${label}不能超过 128 位`);
// MOREDOC's client sends the image captcha with the code request; it is checked there when switched on.
const captcha = { captcha: z.string().max(16, "验证码格式不正确").optional(), captcha_id: z.string().max(128, "验证码格式不正确").optional() };

export const sendSchema = z.object({
  mobile,
  type: z.coerce.number({ error: "短信类型不正确" }).int("短信类型不正确").min(0, "短信类型不正确").max(2, "短信类型不正确"),
  ...captcha,
});

export const registerSchema = z.object({
  mobile,
  code,
  password: password("密码"),
  username: z.string({ error: "用户名必须是文本" }).trim().max(32, "用户名不能超过 32 个字符")
    .regex(/^[\w\u4e00-\u9fa5-]*$/, "用户名只能包含中文、字母、数字、下划线和减号").optional(),
  ...captcha,
});

export const loginSchema = z.object({ mobile, code, ...captcha });

export const findPasswordSchema = z.object({ mobile, code, password: password("新密码"), ...captcha });

const optionalInt = (label: string, max: number) =>
  z.union([z.literal(""), z.coerce.number({ error: `${label}不正确` }).int(`${label}不正确`).min(0, `${label}不正确`).max(max, `${label}不正确`)])
    .optional().transform((v) => (v === "" ? undefined : v));

export const listQuery = z.object({
  ...pageQuery(20),
  type: optionalInt("短信类型", 2),
  status: optionalInt("发送状态", 2),
  provider: z.string().max(32, "服务商不正确").optional(),
  keyword: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  ...dateRangeQuery,
});
