// The signers against the worked examples the providers publish (external vectors, not our own output):
// Aliyun RPC "DescribeRegions" (testid/testsecret), Tencent TC3 "DescribeInstances" (cvm, 1551113065),
// Baidu bce-auth-v1 BOS "readme.txt" (a…a/b…b, 2015-04-27T08:23:49Z). Huawei publishes no secret with its
// example, so its digest is checked for the documented shape: Base64 of the hex SHA-256.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { aliyunSignature } from "#src/features/sms/providers/aliyun.ts";
import { bceAuthorization } from "#src/features/sms/providers/baidu.ts";
import { haomasSignature, haomasStringToSign } from "#src/features/sms/providers/haomas.ts";
import { wssePasswordDigest, wsseHeader } from "#src/features/sms/providers/huawei.ts";
import { tc3Signature } from "#src/features/sms/providers/tencent.ts";
import { rfc3986 } from "#src/features/sms/providers/types.ts";

describe("published signature examples", () => {
  const aliyunParams = {
    AccessKeyId: "testid", Action: "DescribeRegions", Format: "XML", SignatureMethod: "HMAC-SHA1",
    SignatureNonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf", SignatureVersion: "1.0", Timestamp: "2016-02-23T12:46:24Z", Version: "2014-05-26",
  };

  test("Aliyun RPC v1: the documented GET signature, and the POST one our sender uses", () => {
    expect(aliyunSignature("GET", aliyunParams, "testsecret")).toBe("OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
    expect(aliyunSignature("POST", aliyunParams, "testsecret")).toBe("MxbnVAM4w6sft9xjVpe/GCKueuk=");
  });

  test("Aliyun percent-encoding encodes what encodeURIComponent leaves alone", () => {
    expect(rfc3986("a b*c~d!'()")).toBe("a%20b%2Ac~d%21%27%28%29");
    expect(rfc3986("2016-02-23T12:46:24Z")).toBe("2016-02-23T12%3A46%3A24Z");
  });

  test("Tencent TC3-HMAC-SHA256: the documented cvm example", () => {
    const r = tc3Signature({
      secretKey: "Gu5t9xGARNpq86cd98joQYCN3*******",
      host: "cvm.tencentcloudapi.com",
      path: "/",
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
      timestamp: 1551113065,
      service: "cvm",
    });
    expect(r.scope).toBe("2019-02-25/cvm/tc3_request");
    expect(r.signedHeaders).toBe("content-type;host");
    expect(r.signature).toBe("2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c");
  });

  test("Baidu bce-auth-v1: the documented BOS example (host;x-bce-date signed)", () => {
    const auth = bceAuthorization({
      ak: "a".repeat(32), sk: "b".repeat(32), method: "PUT", path: "/v1/test/myfolder/readme.txt",
      query: { partNumber: "9", uploadId: "a44cc9bab11cbd156984767aad637851" },
      headers: { Host: "bj.bcebos.com", "x-bce-date": "2015-04-27T08:23:49Z" },
      timestamp: "2015-04-27T08:23:49Z",
    });
    expect(auth).toBe(`bce-auth-v1/${"a".repeat(32)}/2015-04-27T08:23:49Z/1800/host;x-bce-date/1b8de5a23a56eef657c69f94c621e7acd227d049a4ba577f537d5e5cebf0cf32`);
  });

  test("Baidu bce-auth-v1: the five default headers of the same example", () => {
    const auth = bceAuthorization({
      ak: "a".repeat(32), sk: "b".repeat(32), method: "PUT", path: "/v1/test/myfolder/readme.txt",
      query: { partNumber: "9", uploadId: "a44cc9bab11cbd156984767aad637851" },
      headers: { Host: "bj.bcebos.com", "Content-Type": "text/plain", "Content-Length": "8", "Content-Md5": "NFzcPqhviddjRNnSOGo4rw==", "x-bce-date": "2015-04-27T08:23:49Z" },
      timestamp: "2015-04-27T08:23:49Z",
    });
    expect(auth.split("/").at(-1)).toBe("d74a04362e6a848f5b39b15421cb449427f419c95a480fd6b8cf9fc783e2999e");
  });

  test("Huawei X-WSSE: PasswordDigest is Base64 of the hex SHA-256 of Nonce + Created + AppSecret", () => {
    const digest = wssePasswordDigest("ac1c911c4792492687f8f6b2264a491e", "2018-05-26T00:35:30Z", "secret");
    const hex = createHash("sha256").update("ac1c911c4792492687f8f6b2264a491e2018-05-26T00:35:30Zsecret").digest("hex");
    expect(Buffer.from(digest, "base64").toString()).toBe(hex);
    // The doc's example header decodes to 64 hex characters, the same shape.
    expect(Buffer.from("NDA1MWIwNjI2ZTkyNWFlM2FhMTE5NDE1YTk5NjU1YWE4NjNlZTY1MmRhYzkxZGViNzczZjdjMjkzZWQ4ZjAwNA==", "base64").toString()).toMatch(/^[0-9a-f]{64}$/);
    expect(wsseHeader("key", "secret", "n0nce", "2024-01-01T00:00:00Z")).toBe(
      `UsernameToken Username="key",PasswordDigest="${wssePasswordDigest("n0nce", "2024-01-01T00:00:00Z", "secret")}",Nonce="n0nce",Created="2024-01-01T00:00:00Z"`,
    );
  });

  test("Haomas (generic scheme): sorted k=v pairs without the signature field", () => {
    const fields = { timestamp: "1700000000", app_key: "k", mobile: "13800138000", signature: "ignored" };
    expect(haomasStringToSign(fields)).toBe("app_key=k&mobile=13800138000&timestamp=1700000000");
    expect(haomasSignature(fields, "s")).toMatch(/^[0-9a-f]{64}$/);
  });
});
