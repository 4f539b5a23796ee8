import { z } from "zod";
import { dateRangeQuery, idField, pageQuery } from "#src/features/admin/crud/schema.ts";
import { USERNAME_RE } from "#src/features/auth/schema.ts";
import { MOBILE_RE } from "#src/lib/format.ts";

const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

// The same rules as registration, so an admin cannot create a name a user could not.
const username = z.string({ error: "请输入登录用户名" }).trim().min(1, "请输入登录用户名").min(2, "用户名长度为 2-64 个字符").max(64, "用户名长度为 2-64 个字符")
  .regex(USERNAME_RE, "用户名只能包含字母、数字、下划线和汉字");
const email = z.string({ error: "邮箱必须是文本" }).trim().max(254, "邮箱不能超过 254 个字符")
  .refine((s) => s === "" || z.email().safeParse(s).success, "请输入正确的邮箱").transform((s) => s.toLowerCase());
const mobile = z.string({ error: "手机号必须是文本" }).trim().max(11, "请输入正确的手机号").refine((s) => s === "" || MOBILE_RE.test(s), "请输入正确的手机号");
const realname = z.string({ error: "真实姓名必须是文本" }).trim().max(64, "真实姓名不能超过 64 个字符").refine(noControl, "真实姓名不能包含控制字符");
const groupIds = z.array(idField, { error: "请选择用户组" }).max(100, "用户组过多");
const status = z.union([z.literal(0), z.literal(1)], { error: "状态只能是 0（正常）或 1（禁用）" });

export const userCreate = z.object({
  username,
  password: z.string({ error: "请输入密码" }).min(6, "密码至少 6 位").max(128, "密码不能超过 128 位"),
  email: email.optional(),
  mobile: mobile.optional(),
  realname: realname.optional(),
  group_id: groupIds.optional(),
  status: status.optional(),
});

export const userUpdate = z.object({
  id: idField,
  email: email.optional(),
  mobile: mobile.optional(),
  realname: realname.optional(),
  group_id: groupIds.optional(),
  status: status.optional(),
  // The admin table's switch sends enable (true = normal); it is the same thing as status.
  enable: z.boolean({ error: "启用状态必须是是或否" }).optional(),
  // Empty means "keep the current password".
  password: z.union([z.literal(""), z.string({ error: "密码必须是文本" }).min(6, "密码至少 6 位").max(128, "密码不能超过 128 位")]).optional(),
});

export const userListQuery = z.object({
  ...pageQuery(20),
  wd: z.string().trim().max(64, "关键词不能超过 64 个字符").optional(),
  group_id: z.union([z.literal(""), idField]).transform((v) => (v === "" ? undefined : v)).optional(),
  status: z.enum(["", "0", "1"], { error: "状态只能是 0（正常）或 1（禁用）" }).transform((v) => (v === "" ? undefined : Number(v) as 0 | 1)).optional(),
  ...dateRangeQuery,
});
