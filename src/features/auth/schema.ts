import { z } from "zod";

export const loginSchema = z.object({
  username: z.string({ error: "请输入登录用户名" }).trim().min(1, "请输入登录用户名").max(64, "用户名不能超过 64 个字符"),
  password: z.string({ error: "请输入密码" }).min(1, "请输入密码").max(128, "密码不能超过 128 个字符"),
});

export const passwordSchema = z.object({
  id: z.coerce.number().int().optional(),
  old_password: z.string({ error: "请输入旧密码" }).min(1, "请输入旧密码").max(128),
  new_password: z.string({ error: "请输入新密码" }).min(6, "新密码至少 6 位").max(128, "新密码不能超过 128 位"),
});

export const profileSchema = z.object({
  username: z.string({ error: "请输入登录用户名" }).trim().min(1, "请输入登录用户名").max(64, "用户名不能超过 64 个字符").optional(),
  realname: z.string().trim().max(64, "真实姓名不能超过 64 个字符").optional(),
  identity: z.string().trim().max(32, "身份证号不能超过 32 个字符").optional(),
  email: z.union([z.literal(""), z.email("请输入正确的邮箱")]).optional(),
  address: z.string().trim().max(255, "地址不能超过 255 个字符").optional(),
  signature: z.string().trim().max(255, "签名不能超过 255 个字符").optional(),
});
