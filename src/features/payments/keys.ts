// RSA keys as administrators paste them: a PEM file (PKCS#8 or PKCS#1, any line endings, stray
// indentation) or the bare one-line base64 Alipay's key tool prints. Parsed once per settings
// version by the callers; the key text itself is never logged or put into an error message.
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";

function cleanPem(text: string): string {
  return text.replace(/\r/g, "").split("\n").map((l) => l.trim()).filter(Boolean).join("\n");
}

function bareDer(text: string): Buffer | null {
  const b64 = text.replace(/\s+/g, "");
  if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  return Buffer.from(b64, "base64");
}

/** A private key from PEM or bare base64 DER (PKCS#8 first, then PKCS#1); null when it is none. */
export function parsePrivateKey(text: string): KeyObject | null {
  const t = text.trim();
  if (!t) return null;
  try {
    if (t.includes("-----BEGIN")) return createPrivateKey({ key: cleanPem(t), format: "pem" });
    const der = bareDer(t);
    if (!der) return null;
    for (const type of ["pkcs8", "pkcs1"] as const) {
      try {
        return createPrivateKey({ key: der, format: "der", type });
      } catch {}
    }
  } catch {}
  return null;
}

/** A public key from PEM (public key or certificate) or bare base64 DER (SPKI first, then PKCS#1); null when it is none. */
export function parsePublicKey(text: string): KeyObject | null {
  const t = text.trim();
  // createPublicKey would happily derive one from a private key: a private key pasted into the
  // public-key field is a mistake to report, not a key to verify with.
  if (!t || t.includes("PRIVATE KEY")) return null;
  try {
    if (t.includes("-----BEGIN")) return createPublicKey({ key: cleanPem(t), format: "pem" });
    const der = bareDer(t);
    if (!der) return null;
    for (const type of ["spki", "pkcs1"] as const) {
      try {
        return createPublicKey({ key: der, format: "der", type });
      } catch {}
    }
  } catch {}
  return null;
}

export const isRsa = (k: KeyObject) => k.asymmetricKeyType === "rsa";
