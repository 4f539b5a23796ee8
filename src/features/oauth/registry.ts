import { log } from "#src/http/requestLog.ts";
import { isProviderType, readConfig, type Provider, type ProviderConfig, type ProviderType } from "./providers/common.ts";
import { custom } from "./providers/custom.ts";
import { gitee } from "./providers/gitee.ts";
import { github } from "./providers/github.ts";
import { google } from "./providers/google.ts";
import { qq } from "./providers/qq.ts";
import { wechat } from "./providers/wechat.ts";

const PROVIDERS: Record<ProviderType, Provider> = { github, gitee, qq, wechat, google, custom };

// Brand colour and glyph of each built-in button; the custom provider may set an icon image.
const BADGES: Record<ProviderType, [string, string]> = {
  github: ["#24292f", "GH"], gitee: ["#c71d23", "码"], qq: ["#12b7f5", "Q"], wechat: ["#07c160", "微"], google: ["#4285f4", "G"], custom: ["#5b6b7f", ""],
};

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A small round SVG badge as a data: URL, so API clients get a usable icon without extra files. */
function badge(type: ProviderType, name: string): string {
  const [colour, glyph] = BADGES[type];
  const text = escapeXml(glyph || [...name][0] || "?");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="${colour}"/><text x="16" y="21" font-size="${text.length > 1 ? 12 : 15}" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="700">${text}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export interface EnabledProvider { provider: Provider; cfg: ProviderConfig; type: ProviderType; name: string; icon: string }

/** The provider of `type` when the admin switched it on and filled in everything it needs, else null. */
export function enabledProvider(type: string): EnabledProvider | null {
  if (!isProviderType(type)) return null;
  const cfg = readConfig(type);
  const provider = PROVIDERS[type];
  if (!cfg.enabled || !cfg.clientId || !cfg.clientSecret || (provider.complete && !provider.complete(cfg))) return null;
  if (cfg.base && !/^https?:\/\/[^/]/i.test(cfg.base)) {
    log("warn", "oauth base url ignored: not an http(s) URL", { type });
    return null;
  }
  const name = provider.name(cfg);
  const icon = type === "custom" ? String(cfg.all.custom_icon || "") || badge(type, name) : badge(type, name);
  return { provider, cfg, type, name, icon };
}

export const enabledProviders = () => Object.keys(PROVIDERS).map(enabledProvider).filter((p): p is EnabledProvider => !!p);

/** What a login button needs (no ids, no secrets); server pages pass it to the OAuthButtons island. */
export const oauthButtons = () => enabledProviders().map(({ type, name, icon }) => ({ type, name, icon }));
