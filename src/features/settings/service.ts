import { getDb } from "#db/client.ts";
import { config } from "#db/schema/config.ts";
import { badRequest } from "#src/lib/errors.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { GROUPS, GROUP_BY_NAME, type SettingDef } from "./definitions.ts";

export type SettingValue = string | number | boolean;
export type Settings = Record<string, Record<string, SettingValue>>;

let cache: Settings | null = null;

function decode(def: SettingDef, raw: string | undefined): SettingValue {
  if (raw === undefined) return def.default;
  if (def.type === "switch") return raw === "true" || raw === "1";
  if (def.type === "number") {
    const n = Number(raw);
    return Number.isFinite(n) ? n : def.default;
  }
  return raw;
}

/** All settings, typed, with defaults filled in. Cached in memory; writes invalidate. */
export function getSettings(): Settings {
  if (cache) return cache;
  const rows = getDb().select().from(config).all();
  const stored = new Map(rows.map((r) => [`${r.category}.${r.name}`, r.value]));
  const out: Settings = {};
  for (const g of GROUPS) {
    out[g.name] = {};
    for (const d of g.settings) out[g.name][d.name] = decode(d, stored.get(`${g.name}.${d.name}`));
  }
  cache = out;
  return out;
}

export function invalidateSettings() {
  cache = null;
}

export const setting = <T extends SettingValue>(group: string, name: string): T => getSettings()[group]?.[name] as T;

/** Credit name, falling back to 魔豆 when blank. */
export const creditName = () => String(setting("system", "credit_name") || "").trim() || "魔豆";

/** Public groups with secret and private keys removed: what GET /settings answers. */
export function publicSettings(): Settings {
  const all = getSettings();
  const out: Settings = {};
  for (const g of GROUPS) {
    if (!g.public) continue;
    out[g.name] = {};
    for (const d of g.settings) if (!d.secret && d.public !== false) out[g.name][d.name] = all[g.name][d.name];
  }
  out.system.credit_name = creditName();
  return out;
}

export interface ConfigItem {
  category: string;
  name: string;
  label: string;
  value: SettingValue;
  input_type: string;
  placeholder: string;
  options: { value: string; label: string }[];
  secret: boolean;
  has_value: boolean;
}

/** Admin view of groups; secret values are replaced by "" with has_value telling whether one is set. */
export function listConfig(categories?: string[]): ConfigItem[] {
  const all = getSettings();
  const groups = categories?.length ? GROUPS.filter((g) => categories.includes(g.name)) : GROUPS;
  return groups.flatMap((g) =>
    g.settings.map((d) => {
      const v = all[g.name][d.name];
      return {
        category: g.name, name: d.name, label: d.label, input_type: d.type, placeholder: d.placeholder ?? "",
        options: d.options ?? [], secret: !!d.secret,
        value: d.secret ? "" : v, has_value: v !== "" && v !== d.default,
      };
    }),
  );
}

function encode(def: SettingDef, label: string, value: unknown): string {
  if (def.type === "switch") {
    if (typeof value === "boolean") return String(value);
    if (value === "true" || value === "false") return value;
    if (value === 1 || value === 0 || value === "1" || value === "0") return String(value === 1 || value === "1");
    throw badRequest(`「${label}」必须是开关值`);
  }
  if (def.type === "number") {
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n)) throw badRequest(`「${label}」必须是数字`);
    if (def.min !== undefined && n < def.min) throw badRequest(`「${label}」不能小于 ${def.min}`);
    if (def.max !== undefined && n > def.max) throw badRequest(`「${label}」不能大于 ${def.max}`);
    return String(n);
  }
  if (typeof value !== "string") throw badRequest(`「${label}」必须是文本`);
  const max = def.maxLength ?? 20000;
  if (value.length > max) throw badRequest(`「${label}」不能超过 ${max} 个字符`);
  if (def.options && !def.options.some((o) => o.value === value)) throw badRequest(`「${label}」的取值无效`);
  return value;
}

/** Validates every item first, then writes all in one transaction: nothing is half-saved. */
export function updateConfig(items: { category: string; name: string; value: unknown }[]) {
  const writes: { category: string; name: string; value: string }[] = [];
  for (const it of items) {
    const def = GROUP_BY_NAME.get(it.category)?.settings.find((d) => d.name === it.name);
    if (!def) throw badRequest(`未知的配置项：${it.category}.${it.name}`);
    // A blank secret means "keep the stored one": the admin screen never receives secrets.
    if (def.secret && (it.value === "" || it.value === undefined || it.value === null)) continue;
    writes.push({ category: it.category, name: it.name, value: encode(def, def.label, it.value) });
  }
  const db = getDb();
  db.transaction((tx) => {
    for (const w of writes) {
      tx.insert(config).values(w).onConflictDoUpdate({
        target: [config.category, config.name],
        set: { value: w.value, updated_at: Date.now() },
      }).run();
    }
  });
  invalidateSettings();
  bumpContentVersion();
}
