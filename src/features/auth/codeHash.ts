import { createHmac, timingSafeEqual } from "node:crypto";
import { setting, updateConfig } from "#src/features/settings/service.ts";

// The one way verification codes (e-mail and SMS) are stored: an HMAC keyed by a server secret and
// bound to channel, address and purpose, so a row proves nothing for another number or use and a
// copied table alone does not reveal the codes.

/** Created on first use and kept as a secret setting; changing it retires every unused code. */
function pepper(): string {
  const have = String(setting("security", "code_pepper") ?? "");
  if (have) return have;
  const made = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  updateConfig([{ category: "security", name: "code_pepper", value: made }]);
  return made;
}

export const hashCode = (channel: "email" | "mobile", target: string, type: number, code: string) =>
  createHmac("sha256", pepper()).update(`${channel}:${target}:${type}:${code}`).digest("hex");

export const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
