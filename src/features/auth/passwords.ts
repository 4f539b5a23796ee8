// argon2id through Bun.password; the one place passwords are hashed or checked.
export const hashPassword = (plain: string) => Bun.password.hash(plain, { algorithm: "argon2id" });
export const verifyPassword = (plain: string, hash: string) => Bun.password.verify(plain, hash).catch(() => false);

/** 16 characters from an unambiguous alphabet, for generated admin passwords. */
export function randomPassword(length = 16): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
