import { s, type GroupDef } from "#src/features/settings/define.ts";

// SMTP account for codes, password-reset links and the admin test mail; admins only (holds a secret).
export const EMAIL_GROUP: GroupDef = {
  name: "email", label: "邮箱设置", public: false,
  settings: [
    s("enable", "启用邮件服务", "switch", false),
    s("host", "SMTP 服务器", "text", "", { placeholder: "如 smtp.qq.com", maxLength: 255 }),
    s("port", "SMTP 端口", "number", 465, { min: 1, max: 65535, placeholder: "SSL/TLS 一般为 465，STARTTLS 一般为 587 或 25" }),
    // Off: plain connection upgraded with STARTTLS whenever the server offers it.
    s("is_tls", "SSL/TLS 加密", "switch", true),
    s("from_name", "发件人名称", "text", "", { placeholder: "留空则使用网站名称", maxLength: 64 }),
    s("username", "发件邮箱", "text", "", { placeholder: "如 noreply@example.com", maxLength: 254 }),
    s("password", "邮箱密码/授权码", "password", "", { secret: true, maxLength: 255 }),
    s("duration", "验证码有效期（分钟）", "number", 10, { min: 1, max: 1440 }),
  ],
};
