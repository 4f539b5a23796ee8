// The settings groups this feature owns; definitions.ts lists them with the others.
import { s, type GroupDef } from "#src/features/settings/define.ts";

/** Paths whose anonymous pages the cache may keep (ssr.page_cache_paths): one prefix a line. */
export const DEFAULT_CACHED_PATHS = ["/", "/category", "/document", "/article", "/search", "/login", "/register", "/findpassword-mobile"].join("\n");

export const SSR_GROUP: GroupDef = {
  name: "ssr", label: "页面缓存", public: false,
  settings: [
    s("enable_page_cache", "为未登录访客缓存页面", "switch", true),
    s("page_cache_seconds", "缓存有效期（秒）", "number", 60, { min: 1, max: 86400 }),
    s("page_cache_paths", "缓存的页面（每行一个路径前缀）", "textarea", DEFAULT_CACHED_PATHS, {
      maxLength: 2000, placeholder: "/\n/category\n/document\n/article\n/search",
    }),
  ],
};

export const MINIPROGRAM_GROUP: GroupDef = {
  name: "miniprogram", label: "小程序设置", public: false,
  settings: [
    s("app_id", "小程序 AppID", "text", "", { maxLength: 64, placeholder: "wx 开头的 18 位 AppID" }),
    s("secret", "小程序 AppSecret", "password", "", { secret: true, maxLength: 128 }),
    s("banner_type", "小程序首页轮播使用的横幅类型", "select", "1", {
      options: [{ value: "1", label: "小程序横幅（类型 1）" }, { value: "0", label: "网站横幅（类型 0）" }, { value: "2", label: "APP 横幅（类型 2）" }],
    }),
  ],
};

export const BACKUP_GROUP: GroupDef = {
  name: "backup", label: "备份设置", public: false,
  settings: [
    s("enable", "定时自动备份", "switch", false),
    s("interval_hours", "备份间隔（小时）", "number", 24, { min: 1, max: 720 }),
    s("retention", "保留最近的备份份数", "number", 7, { min: 1, max: 365 }),
  ],
};
