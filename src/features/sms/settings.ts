// The `sms` settings group: which provider sends verification codes, its credentials and endpoint,
// and the limits that keep the site from being used as a free SMS gun.
import { s, type GroupDef } from "#src/features/settings/define.ts";

export const SMS_PROVIDERS = [
  { value: "smsAliyun", label: "阿里云短信" },
  { value: "smsTencent", label: "腾讯云短信" },
  { value: "smsBaidu", label: "百度智能云短信" },
  { value: "smsHuawei", label: "华为云消息&短信" },
  { value: "smsHaomas", label: "号码商短信（浩信）" },
];

export const SMS_DEFAULT_ENDPOINTS = {
  aliyun: "https://dysmsapi.aliyuncs.com",
  tencent: "https://sms.tencentcloudapi.com",
  baidu: "https://smsv3.bj.baidubce.com",
  huawei: "https://smsapi.cn-north-4.myhuaweicloud.com:443",
} as const;

const endpoint = (label: string, def: string, placeholder = "") =>
  s(`${label}_endpoint`, "接口地址", "text", def, { maxLength: 255, placeholder: placeholder || `默认 ${def}` });

export const smsSettings: GroupDef = {
  name: "sms", label: "短信设置", public: false,
  settings: [
    s("enable", "启用短信验证码", "switch", false),
    s("provider", "短信服务商", "select", "smsAliyun", { options: SMS_PROVIDERS }),
    s("sign_name", "短信签名", "text", "", { maxLength: 64, placeholder: "阿里云、腾讯云、华为云填签名名称；百度云填签名 ID（如 sms-sign-xxxx）" }),
    s("template_register", "注册验证码模板 ID", "text", "", { maxLength: 64, placeholder: "如 SMS_123456789；三种用途可填同一个模板" }),
    s("template_login", "登录验证码模板 ID", "text", "", { maxLength: 64 }),
    s("template_find_password", "找回密码验证码模板 ID", "text", "", { maxLength: 64 }),
    s("template_with_minutes", "模板含有效期（分钟）变量", "switch", false),
    s("code_length", "验证码位数", "number", 6, { min: 4, max: 8 }),
    s("code_duration", "验证码有效期（分钟）", "number", 5, { min: 1, max: 60 }),
    s("resend_interval", "重新发送间隔（秒）", "number", 60, { min: 10, max: 3600 }),
    s("mobile_hourly_limit", "每个手机号每小时最多发送", "number", 5, { min: 1, max: 1000 }),
    s("mobile_daily_limit", "每个手机号每天最多发送", "number", 10, { min: 1, max: 10000 }),
    s("ip_daily_limit", "每个 IP 每天最多发送", "number", 20, { min: 1, max: 100000 }),
    s("timeout_seconds", "接口请求超时（秒）", "number", 10, { min: 1, max: 60 }),

    s("aliyun_access_key_id", "阿里云 AccessKey ID", "text", "", { maxLength: 128 }),
    s("aliyun_access_key_secret", "阿里云 AccessKey Secret", "password", "", { secret: true, maxLength: 128 }),
    s("aliyun_region", "阿里云地域 RegionId", "text", "cn-hangzhou", { maxLength: 64 }),
    endpoint("aliyun", SMS_DEFAULT_ENDPOINTS.aliyun),

    s("tencent_secret_id", "腾讯云 SecretId", "text", "", { maxLength: 128 }),
    s("tencent_secret_key", "腾讯云 SecretKey", "password", "", { secret: true, maxLength: 128 }),
    s("tencent_sdk_app_id", "腾讯云短信 SdkAppId", "text", "", { maxLength: 64, placeholder: "短信控制台「应用管理」中的 SDK AppID" }),
    s("tencent_region", "腾讯云地域 Region", "text", "ap-guangzhou", { maxLength: 64 }),
    endpoint("tencent", SMS_DEFAULT_ENDPOINTS.tencent),

    s("baidu_access_key", "百度云 Access Key (AK)", "text", "", { maxLength: 128 }),
    s("baidu_secret_key", "百度云 Secret Key (SK)", "password", "", { secret: true, maxLength: 128 }),
    endpoint("baidu", SMS_DEFAULT_ENDPOINTS.baidu),

    s("huawei_app_key", "华为云 Application Key", "text", "", { maxLength: 128 }),
    s("huawei_app_secret", "华为云 Application Secret", "password", "", { secret: true, maxLength: 128 }),
    s("huawei_sender", "华为云签名通道号", "text", "", { maxLength: 64, placeholder: "短信控制台「签名管理」中的通道号，如 csms12345678" }),
    endpoint("huawei", SMS_DEFAULT_ENDPOINTS.huawei, "控制台「应用管理」中的 APP 接入地址，默认华北-北京四"),

    s("haomas_app_key", "号码商 AppKey", "text", "", { maxLength: 128 }),
    s("haomas_app_secret", "号码商 AppSecret", "password", "", { secret: true, maxLength: 128 }),
    endpoint("haomas", "", "服务商发送接口的完整地址（必填）；按 JSON + HMAC-SHA256 签名（signature 字段）对接"),
  ],
};
