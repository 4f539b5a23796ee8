import { badRequest } from "#src/lib/errors.ts";
import { COMMON_PASSWORDS } from "./commonPasswords.ts";

// argon2id through Bun.password; the one place passwords are hashed or checked.
// OWASP's argon2id baseline (19 MiB, 2 passes): ~40 ms here instead of ~190 ms at Bun's 64 MiB
// default, so two cores can check logins without a queue while guessing stays costly.
export const ARGON2 = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
export const hashPassword = (plain: string) => Bun.password.hash(plain, ARGON2);
export const verifyPassword = (plain: string, hash: string) => Bun.password.verify(plain, hash).catch(() => false);

/** 16 characters from an unambiguous alphabet, for generated admin passwords. */
export function randomPassword(length = 16): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/**
 * New passwords (register, admin-created accounts, password change): not one of the passwords every
 * guessing script tries first, and not the username (either compared without case).
 */
export function assertPasswordAcceptable(password: string, username?: string | null) {
  const p = password.trim().toLowerCase();
  if (COMMON_PASSWORDS.has(p)) throw badRequest("密码过于常见，容易被猜中，请换一个更复杂的密码");
  if (username && p === username.trim().toLowerCase()) throw badRequest("密码不能与用户名相同");
}
