import { s, type GroupDef, type SettingDef } from "#src/features/settings/define.ts";

// Third-party login, configured in /admin/config/oauth. Private group: client secrets never leave
// the server, and even the ids are only exposed through GET /oauth/configs as authorize URLs.

const provider = (type: string, label: string, idLabel: string, secretLabel: string): SettingDef[] => [
  s(`${type}_enable`, `启用${label}登录`, "switch", false),
  s(`${type}_client_id`, `${label} ${idLabel}`, "text", "", { maxLength: 255 }),
  s(`${type}_client_secret`, `${label} ${secretLabel}`, "password", "", { secret: true, maxLength: 512 }),
];

// Endpoint hosts default to the providers' official ones (providers.ts); an override replaces every
// host of that provider, e.g. for a reverse proxy, a self-hosted mirror or a local test stand-in.
const baseUrl = (type: string, label: string, official: string): SettingDef =>
  s(`${type}_base_url`, `高级：${label}接口地址`, "text", "", { placeholder: `留空使用官方地址（${official}）`, maxLength: 255 });

export const oauthSettings: GroupDef = {
  name: "oauth",
  label: "第三方登录",
  public: false,
  settings: [
    ...provider("github", "GitHub", "Client ID", "Client Secret"),
    ...provider("gitee", "Gitee", "Client ID", "Client Secret"),
    ...provider("qq", "QQ", "APP ID", "APP Key"),
    ...provider("wechat", "微信（网站应用扫码）", "AppID", "AppSecret"),
    ...provider("google", "Google", "Client ID", "Client Secret"),
    ...provider("custom", "自定义 OAuth2/OIDC", "Client ID", "Client Secret"),
    s("custom_name", "自定义登录按钮名称", "text", "企业账号", { maxLength: 32 }),
    s("custom_icon", "自定义登录图标", "image", "", { placeholder: "图标地址，留空显示名称首字" }),
    s("custom_issuer", "OIDC Issuer（可选）", "text", "", { placeholder: "如 https://sso.example.com/realms/main，填写后自动发现下面未填写的地址", maxLength: 255 }),
    s("custom_authorize_url", "授权地址 authorize_url", "text", "", { placeholder: "https://sso.example.com/oauth2/authorize", maxLength: 512 }),
    s("custom_token_url", "令牌地址 token_url", "text", "", { placeholder: "https://sso.example.com/oauth2/token", maxLength: 512 }),
    s("custom_userinfo_url", "用户信息地址 userinfo_url", "text", "", { placeholder: "https://sso.example.com/oauth2/userinfo", maxLength: 512 }),
    s("custom_scope", "授权范围 scope", "text", "openid profile email", { maxLength: 255 }),
    s("custom_token_auth", "令牌接口认证方式", "select", "post", {
      options: [{ value: "post", label: "client_secret_post（参数放在请求体）" }, { value: "basic", label: "client_secret_basic（HTTP Basic）" }],
    }),
    s("custom_field_id", "用户 ID 字段路径", "text", "sub", { placeholder: "如 sub、id、data.user.id", maxLength: 128 }),
    s("custom_field_name", "昵称字段路径", "text", "name", { maxLength: 128 }),
    s("custom_field_avatar", "头像字段路径", "text", "picture", { maxLength: 128 }),
    s("custom_field_email", "邮箱字段路径", "text", "email", { maxLength: 128 }),
    s("wechat_mp_app_id", "微信公众号 AppID（网页分享签名）", "text", "", { maxLength: 64 }),
    s("wechat_mp_app_secret", "微信公众号 AppSecret", "password", "", { secret: true, maxLength: 128 }),
    baseUrl("github", "GitHub ", "https://github.com、https://api.github.com"),
    baseUrl("gitee", "Gitee ", "https://gitee.com"),
    baseUrl("qq", "QQ ", "https://graph.qq.com"),
    baseUrl("wechat", "微信", "https://open.weixin.qq.com、https://api.weixin.qq.com"),
    baseUrl("google", "Google ", "https://accounts.google.com、https://oauth2.googleapis.com、https://openidconnect.googleapis.com"),
  ],
};
