import { describe, expect, test } from "bun:test";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();

describe("site", () => {
  test("home renders with Chinese title", async () => {
    const r = await t.req("GET", "/", { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<html lang="zh-CN">');
    expect(r.text).toContain("魔豆文库");
  });
  test("unknown path is 404 with the text", async () => {
    const r = await t.req("GET", "/no/such/page", { headers: { accept: "text/html" } });
    expect(r.status).toBe(404);
    expect(r.text).toContain("This page could not be found");
  });
});
