// The spider's settings group; definitions.ts lists it with the others.
import { s, type GroupDef } from "#src/features/settings/define.ts";

export const SPIDER_GROUP: GroupDef = {
  name: "spider", label: "采集设置", public: false,
  settings: [
    s("allow_private_addresses", "允许采集内网与本机地址（有安全风险，仅测试时开启）", "switch", false),
    s("delay_ms", "同一网站两次请求的间隔（毫秒）", "number", 1000, { min: 0, max: 60000 }),
    s("user_agent", "采集使用的 User-Agent", "text", "WenkuSpider/1.0", { maxLength: 255 }),
    s("max_size", "单个文件最大体积（MB，每个采集任务可以更小）", "number", 50, { min: 1, max: 2048 }),
    s("timeout", "单次请求超时（秒）", "number", 60, { min: 1, max: 3600 }),
    s("max_documents", "每个网址最多记录的文档数", "number", 500, { min: 1, max: 10000 }),
  ],
};
