// Fixed vectors for the WeChat Pay v3 primitives, each derived with a tool other than the code
// under test: the RSA signatures with `openssl dgst -sha256 -sign` over the same bytes, the
// AEAD_AES_256_GCM ciphertext with Python's cryptography AESGCM. The message layouts are the
// official examples of pay.weixin.qq.com ("签名生成": GET /v3/certificates at 1554208460 with nonce
// 593BEC0C930BF1AFEB40B4A08C8FB242; "如何使用微信支付公钥验签": the Native answer at 1722850421).
import { describe, expect, test } from "bun:test";
import { createPrivateKey, createPublicKey } from "node:crypto";
import {
  answerMessage, authorization, decryptResource, fingerprint, normalSerial, requestMessage, rsaSign, rsaVerify,
  timestampFresh, truncateUtf8,
} from "./crypto.ts";
import { nativeOrderBody } from "./gateway.ts";

/** A throw-away 2048-bit key made for these vectors (openssl genpkey); it signs nothing real. */
const TEST_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQCk8NniOugWST7L
7aeMg/cQQ63VxpXL66Z0ZiBFJZZVFHfk3Dt7xScU9tXtVypiUPUzUluXJbDvq+a2
v5PKBiG+N54h6IMcdHPNDJIfBiEQtg2AILP0JGd+01eMPUCBuWTHWDqEdcPw89od
yBzxGOiGUs5jkEfcb6VO+NchD+rcqG721zHrVhUAN8lE49CDuMrmY1uilRBJdhOx
QEb6M03ySoERwjmFB35lxmZoVs+QK7pZ/EMHo2Ev/MuSeji5miMtMsstptolISS5
FSzSUzY80bGfchGV5SAGJ5FBxTwk1Y35qdt8KD8DBS83bs43h8ByzDDPvCiZHymB
NxpgnsKlAgMBAAECggEAALon7NjiaOwEEFYNabWE9ZOOcftOzvxd9KjTbBhwE7Xm
9YGAPS4RCfmCKM1H30KXbibJ9bhV40spD9iasaDXVnhH5LdsF6VdJoP7DwdGOuh4
vubjGU6EmUqE1C1tlyB1OsMfVr2pLIJMKqw4BhUWmSqkEIZxeZI0WIdDL7kD5sOL
P9PR+8FghRPmbSqUHmKaiitIWo8RKuR1FYAis6HOa8+gFnQoZ7cdBWxKWjLS48tD
0rs0EQ8a/Ij9QfvpS5jf76D2HaWfW7n5LzSF9f1O93TVQ/S5CaLMuiFNSoyposUn
dc/RWK6IO0UoplOrjTfvFyL7dOLuPXFvG7RolJAnKQKBgQDZiSE//CGeL8ekVE3l
hG2rcF2SAUMkSO3hLtHW27G6ydQzMUjfaqp/CPxpV2gaRzrb898LEhkvVpUn99uE
XMAWj9pp4TjRKfHL64Z6E5l9yxYa1mgxkvSHwo93KGO1YbhVz7FhmyLNUb7sL++2
PRTDg2JkACVk5HDmukRQuPawiQKBgQDCGvy7junLXmSz7ujpRwZ7gbLDYyCBvEc3
Zljp6VZ0d1ZbLXs6mbuSfY65Mc0FfIPnr3L/3fK0fljmtBq4vro0HrwklzAwqfDc
UdqWgHcbOPu60Nyxj2CjCf9FvyDNrvEd74deO0LwOfrrlm0tyNg+lEo+VoujN1DC
mpeY2SCiPQKBgQC+8eWjunbv2VTOY8m0a1ewooMfw8fhs7pKbMR4aoNJSBvhi6NB
qOlbdNHKzZRtbJS3uQrRNuOwb7mhSakAOEHMDB1VzwIGZ2D89BIoWcfjaT5P9F+l
FC9cc2Vm3KcY8VvSxuoWmQwlWVnTDAjH2Dm/nDXjPVWViAeqH1oT2SeAsQKBgQCo
/VflbuHq9a5U3P4YAocJRfy9kPK/II0cFVX5p/VmBnO/g9RSS397ZSa54zqsuSAZ
uK01SCVCsPFzQYA2MY7pS4zfimUhKQMSvYzCFOwdXjoDBk3tpHcs2spNDb5gdBtl
xaEkEBISFVh4fQlmoAJsUSxmI3EE02bTVkX/g6GevQKBgQCPvh6owIPrMyqwEuDc
KUtGjNbSp2iwKQraQDCJfFATZgbr6Slw32wgEdgFIUZhd07mxiFmjswHzKqYBc1J
l0nZoAnqdBkxQ86Y3YXsGOBONWQkS1GX6JJpgwbTGmvM4WIjGGr1bWJoY5B+nSKr
Vfsv2OqZ3QWO/6CvEWPVnZPxUw==
-----END PRIVATE KEY-----`;
const key = createPrivateKey(TEST_KEY_PEM);
const pub = createPublicKey(key);

describe("request signature (签名生成)", () => {
  test("the docs' example message: five lines, each ending in \\n, empty body for GET", () => {
    expect(requestMessage("GET", "/v3/certificates", "1554208460", "593BEC0C930BF1AFEB40B4A08C8FB242", "")).toBe(
      "GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n",
    );
  });

  test("SHA256withRSA of the docs' message equals openssl's signature", () => {
    const message = requestMessage("GET", "/v3/certificates", "1554208460", "593BEC0C930BF1AFEB40B4A08C8FB242", "");
    expect(rsaSign(message, key)).toBe("otlRniVDNtujlE3eMor/U8pGhb1/l6x6r7REnedLvx7lPLdrgTZH72UhXnKW7lORewe/9KZ+0egQiMOJxcZZ1lRKa4qDRIcjcY0PCGty4XP2pvfOz59Vs3pejRpAyJW2wlRj8zYVBxFNVRNAkpQSAa7h+LaVKrS7PHKAaiWqKRRNyoBbqkEJVcKlkeZT+5AuH4G6F6bCYYAcpqWKpuRq+11awGhCzlPx4465LHl0Yud/eHWNFFfo6s5z6tyR4ErHp1qY9NNBnul/5ZulxxjN070x13ZYQHyHVZvkLVc3Edi63u50hWMv6PsGBn7+xlt5uM0mlK5JFCZHMPxDdO23Kg==");
  });

  test("a Native order: the exact JSON body, signed as openssl signs the same bytes", () => {
    const body = JSON.stringify(nativeOrderBody(
      { appId: "wxd678efh567hg6787", mchId: "1230000109" },
      { orderNo: "20240501000000000001", amount: 9500, description: "积分充值 1000 积分", expireAt: Date.parse("2024-05-01T08:30:00+08:00") },
      "https://wenku.example.com/api/v1/payment/notify/wechatpay",
    ));
    expect(body).toBe('{"appid":"wxd678efh567hg6787","mchid":"1230000109","description":"积分充值 1000 积分","out_trade_no":"20240501000000000001","time_expire":"2024-05-01T08:30:00+08:00","notify_url":"https://wenku.example.com/api/v1/payment/notify/wechatpay","amount":{"total":9500,"currency":"CNY"}}');
    const message = requestMessage("POST", "/v3/pay/transactions/native", "1722850421", "d824f2e086d3c1df967785d13fcd22ef", body);
    expect(rsaSign(message, key)).toBe("FfveJ/QRxMkfqc2tobJgYRiJpqlbXBqAF/q5m9kJvFVdGNp1oIGtjes8cXdrmG/mF7bntpi2bJnCYZJLjaSWAz1eZrT0FibXm0fLSc2gOv7ElFry2Z73Fc0cuzI4QdkG+Vw2j+9DQkbUmx02ylbKUll/0Sa0vKL6rUQ3EUp1K9NYZjuVxdfkQw0noRQLev4hdvRgo/rDgS78HLfNHHI7y3bue9OopBLXFkSIOvhkrHoq1KYAKitdyeojQq68hA23cUw8AvKlNLFmSuCG4DrVNxUTJmgH45NAOG3Gb4s3BTIf85bu40JhKbvRhNxqO80Q+Mz7tphVoaaKtP41uhY06w==");
  });

  test("Authorization: schema, then mchid, nonce_str, signature, timestamp, serial_no in quotes", () => {
    expect(authorization({ mchId: "1900009191", nonce: "593BEC0C930BF1AFEB40B4A08C8FB242", signature: "c2ln", timestamp: "1554208460", serialNo: "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C" })).toBe(
      'WECHATPAY2-SHA256-RSA2048 mchid="1900009191",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="c2ln",timestamp="1554208460",serial_no="1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C"',
    );
  });
});

describe("answer and notification signature (签名验证)", () => {
  test("the docs' example answer: three lines; a 204's empty body leaves a lone \\n", () => {
    expect(answerMessage("1722850421", "d824f2e086d3c1df967785d13fcd22ef", '{"code_url":"weixin://wxpay/bizpayurl?pr=JyC91EIz1"}')).toBe(
      '1722850421\nd824f2e086d3c1df967785d13fcd22ef\n{"code_url":"weixin://wxpay/bizpayurl?pr=JyC91EIz1"}\n',
    );
    expect(answerMessage("1722850421", "d824f2e086d3c1df967785d13fcd22ef", "")).toBe("1722850421\nd824f2e086d3c1df967785d13fcd22ef\n\n");
  });

  test("verifies openssl's signature, refuses it over any other byte and refuses garbage", () => {
    const message = requestMessage("GET", "/v3/certificates", "1554208460", "593BEC0C930BF1AFEB40B4A08C8FB242", "");
    const sig = "otlRniVDNtujlE3eMor/U8pGhb1/l6x6r7REnedLvx7lPLdrgTZH72UhXnKW7lORewe/9KZ+0egQiMOJxcZZ1lRKa4qDRIcjcY0PCGty4XP2pvfOz59Vs3pejRpAyJW2wlRj8zYVBxFNVRNAkpQSAa7h+LaVKrS7PHKAaiWqKRRNyoBbqkEJVcKlkeZT+5AuH4G6F6bCYYAcpqWKpuRq+11awGhCzlPx4465LHl0Yud/eHWNFFfo6s5z6tyR4ErHp1qY9NNBnul/5ZulxxjN070x13ZYQHyHVZvkLVc3Edi63u50hWMv6PsGBn7+xlt5uM0mlK5JFCZHMPxDdO23Kg==";
    expect(rsaVerify(message, sig, pub)).toBe(true);
    expect(rsaVerify(message.replace("1554208460", "1554208461"), sig, pub)).toBe(false);
    expect(rsaVerify(message, `WECHATPAY/SIGNTEST/${sig}`, pub)).toBe(false);
    expect(rsaVerify(message, "not base64 at all", pub)).toBe(false);
  });

  test("timestamps within five minutes either way pass; older, newer or not digits do not", () => {
    const now = 1722850421_000;
    expect(timestampFresh("1722850421", now)).toBe(true);
    expect(timestampFresh(String(1722850421 - 300), now)).toBe(true);
    expect(timestampFresh(String(1722850421 + 300), now)).toBe(true);
    expect(timestampFresh(String(1722850421 - 301), now)).toBe(false);
    expect(timestampFresh(String(1722850421 + 301), now)).toBe(false);
    expect(timestampFresh("1722850421.0", now)).toBe(false);
    expect(timestampFresh("", now)).toBe(false);
  });
});

describe("AEAD_AES_256_GCM resource (证书和回调报文解密)", () => {
  const resource = {
    algorithm: "AEAD_AES_256_GCM",
    ciphertext: "kdUy8AAEd+F97t+k/MpygRXtZHctC3RtMchS24m9Vng9yHRmM42GF+z/oI6VV5XRrTHDjRbuQcOvBYq9jNsZHTq6GmC16PqyViRF2L8ANPgKZOh9RwDFIkuqPXOZP2hhL05y754bLLhL5b5d2L1ISNvcNXvKs4ZhOlLkxKPOIxEcB6wHesDSEaQJir69iBuiu4tntE7S7fEJ2qpizmOOZMlNUuZVLJvZ8z37IhMXQvmPDXnBdXMYvosWx7q0NyBBy6wcmVenvRaiY/4hn/TOBLWikyopueRuwzmFPvOGPnTeNqsFNIg9q3VdtjYG45zADNN9zrIRJbKlIVx+nS4hKTx7Z2YHxOlYqVQm68N9h4XhMrjpXq83UcH4wiwtOFf09h7r9ohI0m9ryvxSAiDpfwH4vj1zPSeaWKfd5GwvvGoxzyvgfV180Vn/WbrYhaQgEb27OfEku9/gK28U1P6bcG3hwFPXBSA=",
    associated_data: "transaction",
    nonce: "fdasflkja484",
  };
  const apiV3Key = "0123456789abcdefghijklmnopqrstuv";

  test("decrypts the vector Python's AESGCM produced", () => {
    expect(decryptResource(resource, apiV3Key)).toBe('{"mchid":"1230000109","appid":"wxd678efh567hg6787","out_trade_no":"20240501000000000001","transaction_id":"4200000000202405010000000001","trade_type":"NATIVE","trade_state":"SUCCESS","trade_state_desc":"支付成功","success_time":"2024-05-01T08:05:00+08:00","amount":{"total":9500,"payer_total":9500,"currency":"CNY","payer_currency":"CNY"}}');
  });

  test("a wrong key, nonce, associated data or one flipped bit fails the tag", () => {
    expect(() => decryptResource(resource, "0123456789abcdefghijklmnopqrstuw")).toThrow();
    expect(() => decryptResource({ ...resource, nonce: "fdasflkja485" }, apiV3Key)).toThrow();
    expect(() => decryptResource({ ...resource, associated_data: "certificate" }, apiV3Key)).toThrow();
    const bytes = Buffer.from(resource.ciphertext, "base64");
    bytes[10]! ^= 1;
    expect(() => decryptResource({ ...resource, ciphertext: bytes.toString("base64") }, apiV3Key)).toThrow();
    expect(() => decryptResource({ ...resource, algorithm: "AEAD_SM4_GCM" }, apiV3Key)).toThrow();
    expect(() => decryptResource(resource, "short")).toThrow();
  });
});

describe("helpers", () => {
  test("description is cut to 127 UTF-8 bytes without splitting a character", () => {
    const long = "积".repeat(50);
    const cut = truncateUtf8(long, 127);
    expect(Buffer.byteLength(cut, "utf8")).toBe(126);
    expect(cut).toBe("积".repeat(42));
    expect(truncateUtf8("abc", 127)).toBe("abc");
    expect(Buffer.byteLength(truncateUtf8(`a${"😀".repeat(40)}`, 127), "utf8")).toBe(125);
  });

  test("fingerprints are colon-separated upper-case SHA-256; serials compare without case or leading zeros", () => {
    expect(fingerprint(Buffer.from("abc"))).toBe("BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD");
    expect(normalSerial("05157f09efdc096de15ebe81a47057a7232f1b8e1")).toBe("5157F09EFDC096DE15EBE81A47057A7232F1B8E1");
  });
});
