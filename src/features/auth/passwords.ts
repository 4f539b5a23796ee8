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
