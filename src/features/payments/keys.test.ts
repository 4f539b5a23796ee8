import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { parsePrivateKey, parsePublicKey } from "./keys.ts";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const same = (a: { export: (o: any) => any } | null, b: { export: (o: any) => any }) =>
  expect(a?.export({ type: "pkcs1", format: "der" }).toString("base64")).toBe(b.export({ type: "pkcs1", format: "der" }).toString("base64"));

describe("keys as administrators paste them", () => {
  const pkcs8 = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const pkcs1 = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const spki = publicKey.export({ type: "spki", format: "pem" }).toString();

  test("private keys: PKCS#8 and PKCS#1 PEM, CRLF and indentation, bare one-line base64 of either", () => {
    same(parsePrivateKey(pkcs8), privateKey);
    same(parsePrivateKey(pkcs1), privateKey);
    same(parsePrivateKey(`\n  ${pkcs8.replace(/\n/g, "\r\n  ")}\n`), privateKey);
    same(parsePrivateKey(privateKey.export({ type: "pkcs8", format: "der" }).toString("base64")), privateKey);
    same(parsePrivateKey(privateKey.export({ type: "pkcs1", format: "der" }).toString("base64")), privateKey);
  });

  test("public keys: SPKI PEM, bare base64 SPKI (Alipay's one-line form), PKCS#1", () => {
    same(parsePublicKey(spki), publicKey);
    same(parsePublicKey(publicKey.export({ type: "spki", format: "der" }).toString("base64")), publicKey);
    same(parsePublicKey(publicKey.export({ type: "pkcs1", format: "pem" }).toString()), publicKey);
  });

  test("nonsense is null, never an exception", () => {
    expect(parsePublicKey(pkcs8)).toBeNull();
    for (const bad of ["", "   ", "not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", "QUJD"]) {
      expect(parsePrivateKey(bad)).toBeNull();
      expect(parsePublicKey(bad)).toBeNull();
    }
  });
});
