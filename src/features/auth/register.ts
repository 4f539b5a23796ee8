import { consumeEmailCode } from "#src/features/email/codes.ts";
import { assertCaptcha } from "#src/features/captcha/service.ts";
import { setting } from "#src/features/settings/service.ts";
import { badRequest } from "#src/lib/errors.ts";
import { assertAvailable, assertRegisterOpen, createAccount } from "./accounts.ts";
import type { RegisterInput } from "./schema.ts";

/**
 * Password registration (POST /user/register): open registration, captcha when switched on,
 * the e-mailed code when the site verifies register e-mails. Names and addresses are checked
 * before the code is used up, so a taken username does not cost the user their code.
 */
export async function registerAccount(input: RegisterInput, ip: string) {
  assertRegisterOpen();
  assertCaptcha("register", input.captcha_id, input.captcha);
  const verifyEmail = !!setting<boolean>("security", "enable_verify_register_email");
  const email = input.email || null;
  if (verifyEmail) {
    if (!email) throw badRequest("请输入邮箱");
    if (!input.code) throw badRequest("请输入邮箱验证码");
  }
  assertAvailable({ username: input.username, email });
  if (verifyEmail) await consumeEmailCode(email!, 0, input.code!);
  return createAccount({ username: input.username, password: input.password, email, ip });
}
