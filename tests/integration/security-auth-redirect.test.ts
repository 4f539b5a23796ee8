// Issue 13 item 4: after login/register the site only ever sends people to its own paths, through
// one check shared with the OAuth flow.
import { describe, expect, test } from "bun:test";
import { safeRedirect } from "#src/features/auth/redirect.ts";
import { safeRedirect as oauthRedirect } from "#src/features/oauth/state.ts";
import { setupTestApp } from "../helpers/testApp.ts";

const t = setupTestApp();
const html = { accept: "text/html" };

/** The form island's redirect prop and the page's main part (the header links to /login?redirect=<this URL>, encoded). */
async function authPage(path: string) {
  const r = await t.req("GET", path, { headers: html });
  expect(r.status).toBe(200);
  const m = /data-island="(?:LoginForm|RegisterForm)" data-props="([^"]*)"/.exec(r.text)!;
  const props = JSON.parse(m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, "&")) as { redirect: string };
  const main = r.text.slice(r.text.indexOf("<main"), r.text.indexOf("</main>"));
  return { redirect: props.redirect, main };
}

/** Raw query values (already percent-encoded where they need to be). */
const TRICKS = [
  "/%09/evil.example", // the reported one: tab, which browsers drop → //evil.example
  "/%0d/evil.example", "/%0a/evil.example", "/%0D%0A/evil.example",
  "//evil.example", "/%5Cevil.example", "/%5C%5Cevil.example", "%5C%5Cevil.example",
  "/%2F%2Fevil.example", "/%2f/evil.example", "/%252F%252Fevil.example", "/%2509/evil.example",
  "https://evil.example/", "javascript:alert(1)", "%2F%2Fevil.example", "/%20/evil.example", "/%E3%80%80/evil.example",
];

describe("GET /login and /register ?redirect=", () => {
  for (const trick of TRICKS) {
    test(`${trick} falls back to a path of this site`, async () => {
      for (const [page, fallback] of [["/login", "/"], ["/register", "/me"]] as const) {
        const p = await authPage(`${page}?redirect=${trick}`);
        expect(p.redirect).toBe(fallback);
        expect(p.main.includes("evil.example") || p.main.includes("alert(1)")).toBe(false);
      }
    });
  }

  test("a path of this site (with query and encoded Chinese) is kept", async () => {
    const target = "/search?wd=%E4%B8%AD%E6%96%87&page=2";
    expect((await authPage(`/login?redirect=${encodeURIComponent(target)}`)).redirect).toBe(target);
    expect((await authPage(`/register?redirect=${encodeURIComponent("/document/abc")}`)).redirect).toBe("/document/abc");
  });
});

describe("the one check", () => {
  test("raw values: tab/CR/LF/backslash/'/\\evil'/encoded slashes are refused; OAuth uses the same check", () => {
    for (const bad of ["/\t/evil.example", "/\r/evil.example", "/\n/evil.example", "/\\evil.example", "\\\\evil.example", "/\\/evil.example",
      "//evil.example", "/%2F%2Fevil.example", "/%2f%2fevil.example", "/%5Cevil.example", "/%09/evil.example", "/%252F%252Fevil.example",
      "http://evil.example", "HTTPS:evil.example", "data:text/html,x", " /evil.example", "/\u2028/evil.example", "", "x".repeat(600)]) {
      expect(safeRedirect(bad, "FALLBACK")).toBe("FALLBACK");
      expect(oauthRedirect(bad)).toBe("/me");
    }
    for (const good of ["/", "/me", "/document/abc?page=2#p3", "/search?wd=100%25", "/a//b"]) {
      expect(safeRedirect(good)).toBe(good);
      expect(oauthRedirect(good)).toBe(good);
    }
  });
});
