import { setting } from "#src/features/settings/service.ts";
import { badRequest } from "#src/lib/errors.ts";
import { STRING_ALPHABET } from "./glyphs.ts";
import { captchaPngDataUrl } from "./svg.ts";

// One-time captchas kept in memory: a restart only costs users a refresh. Each is deleted on its
// first check, right or wrong, and lives at most five minutes.

export const CAPTCHA_TTL_MS = 5 * 60_000;
export const MAX_CAPTCHAS = 20_000;
export const PURPOSES = ["login", "register", "comment", "find_password"] as const;
export type CaptchaPurpose = (typeof PURPOSES)[number];
export type CaptchaType = "string" | "math" | "digit";

interface Entry { answer: string; purpose: CaptchaPurpose | null; expires: number }
const store = new Map<string, Entry>();

/**
 * Whether this form needs a captcha: security.enable_captcha_<purpose>, except comments, whose
 * switch sits with the other comment settings (comment.enable_captcha).
 */
export const captchaEnabled = (purpose: CaptchaPurpose) =>
  !!(purpose === "comment" ? setting<boolean>("comment", "enable_captcha") : setting<boolean>("security", `enable_captcha_${purpose}`));

const randomInt = (n: number) => crypto.getRandomValues(new Uint32Array(1))[0]! % n;
const randomFrom = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join("");

function challenge(type: CaptchaType, length: number): { text: string; answer: string } {
  if (type === "math") {
    const op = ["+", "-", "×"][randomInt(3)]!;
    let a = 1 + randomInt(9);
    let b = 1 + randomInt(9);
    // Answers stay non-negative so the user never has to type a minus sign.
    if (op === "-" && a < b) [a, b] = [b, a];
    const answer = op === "+" ? a + b : op === "-" ? a - b : a * b;
    return { text: `${a}${op}${b}=?`, answer: String(answer) };
  }
  const text = randomFrom(type === "digit" ? "0123456789" : STRING_ALPHABET, length);
  return { text, answer: text };
}

// Entries share one lifetime and Map keeps insertion order, so the oldest (first to expire) lead.
function remember(id: string, e: Entry, now: number) {
  for (const [k, v] of store) {
    if (v.expires > now && store.size < MAX_CAPTCHAS) break;
    store.delete(k);
  }
  store.set(id, e);
}

/**
 * A new challenge in the configured type, length and size; the answer stays on the server.
 * `image()` draws it (a PNG data URL); storing is synchronous, drawing is not.
 */
export function issueCaptcha(purpose: CaptchaPurpose | null, now = Date.now()) {
  const cfg = { type: String(setting("captcha", "type")), length: Number(setting("captcha", "length")), width: Number(setting("captcha", "width")), height: Number(setting("captcha", "height")) };
  const type: CaptchaType = cfg.type === "string" || cfg.type === "math" ? cfg.type : "digit";
  const clamp = (n: number, lo: number, hi: number, def: number) => (Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.round(n))) : def);
  const { text, answer } = challenge(type, clamp(cfg.length, 3, 8, 5));
  const id = crypto.randomUUID().replace(/-/g, "");
  remember(id, { answer: answer.toLowerCase(), purpose, expires: now + CAPTCHA_TTL_MS }, now);
  const [width, height] = [clamp(cfg.width, 80, 600, 240), clamp(cfg.height, 30, 200, 60)];
  return { id, type, expires_at: now + CAPTCHA_TTL_MS, image: () => captchaPngDataUrl(text, width, height) };
}

/**
 * Checks and uses up a captcha. Missing input → 400 请输入验证码; unknown, reused, issued for
 * another purpose or wrong → 400 验证码错误; expired → 400 验证码已过期.
 */
export function checkCaptcha(id: string | undefined | null, answer: string | undefined | null, purpose: CaptchaPurpose, now = Date.now()) {
  const given = (answer ?? "").trim().toLowerCase();
  if (!id || !given) throw badRequest("请输入验证码");
  const e = store.get(id);
  store.delete(id);
  if (!e || (e.purpose && e.purpose !== purpose)) throw badRequest("验证码错误");
  if (e.expires <= now) throw badRequest("验证码已过期，请刷新后重试");
  if (e.answer !== given) throw badRequest("验证码错误");
}

/** checkCaptcha only when the site requires a captcha for this purpose. */
export function assertCaptcha(purpose: CaptchaPurpose, id: string | undefined | null, answer: string | undefined | null) {
  if (captchaEnabled(purpose)) checkCaptcha(id, answer, purpose);
}

/** Test-only: the stored answer of a captcha, without using it up. Not reachable over HTTP. */
export const peekCaptchaAnswerForTests = (id: string) => store.get(id)?.answer;
export const captchaCount = () => store.size;
export const clearCaptchas = () => store.clear();
