import { getSettings, type SettingValue } from "#src/features/settings/service.ts";

export const PROVIDER_TYPES = ["github", "gitee", "qq", "wechat", "google", "custom"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];
export const isProviderType = (t: string): t is ProviderType => (PROVIDER_TYPES as readonly string[]).includes(t);

/** What a provider tells us about the person who signed in. */
export interface Profile {
  openid: string;
  unionid: string;
  name: string;
  avatar: string;
  email: string;
}

export interface ProviderConfig {
  type: ProviderType;
  clientId: string;
  clientSecret: string;
  /** admin override replacing every official host of the provider; "" for the official ones */
  base: string;
  /** the whole oauth group, for the custom provider's extra fields */
  all: Record<string, SettingValue>;
}

export interface AuthorizeParams { redirectUri: string; state: string; codeChallenge: string }
export interface ExchangeParams { code: string; redirectUri: string; codeVerifier: string }

export interface Provider {
  type: ProviderType;
  /** button text, e.g. GitHub, 微信 */
  name(cfg: ProviderConfig): string;
  /** whether the admin filled in what this provider needs besides id and secret */
  complete?(cfg: ProviderConfig): boolean;
  authorizeUrl(cfg: ProviderConfig, p: AuthorizeParams): Promise<string>;
  /** code → access token → profile, with the provider's documented calls */
  exchange(cfg: ProviderConfig, p: ExchangeParams): Promise<Profile>;
}

export function readConfig(type: ProviderType): ProviderConfig & { enabled: boolean } {
  const all = getSettings().oauth ?? {};
  return {
    type,
    enabled: !!all[`${type}_enable`],
    clientId: String(all[`${type}_client_id`] ?? "").trim(),
    clientSecret: String(all[`${type}_client_secret`] ?? "").trim(),
    base: String(all[`${type}_base_url`] ?? "").trim(),
    all,
  };
}

/** The host to call: the admin's override when set (any path prefix kept), else the official one. */
export const origin = (cfg: { base: string }, official: string) => (cfg.base || official).replace(/\/+$/, "");

/** Provider avatars are often plain http (qlogo.cn, wx.qlogo.cn serve https too); pages allow only https images. */
export function avatarUrl(v: unknown): string {
  const s = typeof v === "string" ? v.trim() : "";
  if (!/^https?:\/\//i.test(s) || s.length > 1024) return "";
  return s.replace(/^http:\/\//i, "https://");
}

export const cleanEmail = (v: unknown) => {
  const s = typeof v === "string" ? v.trim().toLowerCase() : "";
  return s.length <= 128 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) ? s : "";
};
