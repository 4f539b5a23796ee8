import { aliyun } from "./aliyun.ts";
import { baidu } from "./baidu.ts";
import { haomas } from "./haomas.ts";
import { huawei } from "./huawei.ts";
import { tencent } from "./tencent.ts";
import type { SmsConfig, SmsProvider } from "./types.ts";

const FACTORIES: Record<string, (cfg: SmsConfig) => SmsProvider> = {
  smsAliyun: aliyun,
  smsTencent: tencent,
  smsBaidu: baidu,
  smsHuawei: huawei,
  smsHaomas: haomas,
};

/** The provider chosen in /admin/config/sms, bound to the current settings; null for an unknown name. */
export function providerFor(cfg: SmsConfig): SmsProvider | null {
  const make = FACTORIES[String(cfg.provider)];
  return make ? make(cfg) : null;
}
