// Every setting the site knows: group, key, input type, typed default, Chinese label.
// `secret` values never leave the server; `public: false` groups are only for admins.
import { s, type GroupDef } from "./define.ts";
import { oauthSettings } from "#src/features/oauth/settings.ts";
import { EMAIL_GROUP } from "#src/features/email/settings.ts";
import { smsSettings } from "#src/features/sms/settings.ts";
import { LLM_GROUP } from "#src/features/ai/llm/settings.ts";
import { EMBEDDING_GROUP } from "#src/features/embedding/settings.ts";
import { ARTICLE_GROUP } from "#src/features/articles/settings.ts";
import { COMMENT_GROUP } from "#src/features/comments/settings.ts";
import { BACKUP_GROUP, MINIPROGRAM_GROUP, SSR_GROUP } from "#src/features/ops/settings.ts";
import { SPIDER_GROUP } from "#src/features/spider/settings.ts";
import { OCR_GROUP } from "#src/features/ocr/settings.ts";
export type { GroupDef, SettingDef, InputType } from "./define.ts";

export const GROUPS: GroupDef[] = [
  {
    name: "system", label: "系统设置", public: true,
    settings: [
      s("sitename", "网站名称", "text", "魔豆文库", { maxLength: 64 }),
      s("title", "首页标题", "text", "魔豆文库 - 文档分享与在线阅读", { maxLength: 128 }),
      s("keywords", "网站关键词", "text", "文库,文档,在线阅读,资料下载", { maxLength: 255 }),
      s("description", "网站描述", "textarea", "一个开源、简洁的文档分享平台：上传、阅读、搜索与下载文档。", { maxLength: 512 }),
      s("logo", "网站 Logo", "image", "", { placeholder: "图片地址，留空使用默认 Logo" }),
      s("favicon", "网站图标 favicon", "image", "", { placeholder: "图标地址，留空使用默认图标" }),
      s("domain", "网站域名", "text", "", { placeholder: "如 https://wenku.example.com，用于站点地图与分享链接" }),
      s("version", "程序版本", "text", "0.1.0"),
      s("icp", "ICP 备案号", "text", "", { placeholder: "如 京ICP备12345678号" }),
      s("sec_icp", "公安备案号", "text", "", { placeholder: "如 京公网安备 11010502030143号" }),
      s("copyright_start_year", "版权起始年份", "number", 2024, { min: 1990, max: 2100 }),
      s("enable_powered_by", "显示 Powered by", "switch", true),
      s("enable_watermark", "启用文档水印", "switch", false),
      s("watermark", "水印文字", "text", "", { maxLength: 64 }),
      s("analytics", "统计代码", "textarea", "", { placeholder: "粘贴统计平台提供的 <script> 代码；内容安全策略会自动放行这段代码" }),
      s("credit_name", "积分名称", "text", "魔豆", { maxLength: 16 }),
      s("release_source", "更新检查地址", "text", "", { public: false, maxLength: 512, placeholder: "返回 {version, url, notes} 的 JSON 地址（http/https）" }),
    ],
  },
  {
    name: "footer", label: "底链设置", public: true,
    settings: [
      s("about", "关于我们", "text", "", { placeholder: "链接地址" }),
      s("agreement", "用户协议", "text", "", { placeholder: "链接地址" }),
      s("contact", "联系我们", "text", "", { placeholder: "链接地址" }),
      s("feedback", "意见反馈", "text", "", { placeholder: "链接地址" }),
      s("disclaimer", "免责声明", "text", "", { placeholder: "链接地址" }),
      s("copyright", "版权声明", "text", "", { placeholder: "链接地址" }),
    ],
  },
  {
    name: "security", label: "安全设置", public: true,
    settings: [
      s("login_required", "登录后才能访问", "switch", false),
      s("is_close", "关闭网站", "switch", false),
      s("close_statement", "关闭网站说明", "textarea", "网站维护中，请稍后访问。"),
      s("enable_register", "开放注册", "switch", true),
      s("enable_captcha_login", "登录需要验证码", "switch", false),
      s("enable_captcha_register", "注册需要验证码", "switch", false),
      s("enable_captcha_find_password", "找回密码需要验证码", "switch", false),
      s("enable_verify_register_email", "注册需要验证邮箱", "switch", false),
      s("enable_register_mobile", "开放手机号注册与登录", "switch", false),
      s("search_record_retention_days", "搜索记录保留天数", "number", 90, { min: 1, max: 3650 }),
      s("code_pepper", "验证码加密密钥", "password", "", { secret: true, maxLength: 128, placeholder: "留空则首次发送验证码时自动生成；修改后未使用的验证码全部失效" }),
      s("document_allowed_ext", "允许上传的文档格式", "text", ".pdf,.doc,.docx,.ppt,.pptx,.xls,.xlsx,.wps,.odt,.odp,.ods,.rtf,.txt,.md,.epub,.mobi,.azw3,.png,.jpg,.jpeg,.gif,.webp", { public: true }),
      s("max_document_size", "文档最大体积（MB）", "number", 50, { min: 1, max: 2048 }),
    ],
  },
  {
    name: "display", label: "显示设置", public: true,
    settings: [
      s("hide_category_without_document", "隐藏没有文档的分类", "switch", false),
      s("copyright_statement", "版权声明（文档页底部）", "textarea", "本站文档均由用户上传，仅供学习交流；如有侵权请联系我们删除。"),
      s("wechat_qrcode", "微信二维码", "image", ""),
      s("wechat_tip", "二维码提示文字", "text", "扫码关注公众号"),
      s("contact_link", "联系链接", "text", ""),
      s("contact_tip", "联系提示文字", "text", "联系我们"),
      s("pages_per_read", "每次继续阅读页数", "number", 5, { min: 1, max: 100 }),
      s("max_search_pages", "搜索最大页数", "number", 50, { min: 1, max: 1000 }),
    ],
  },
  {
    name: "download", label: "下载设置", public: true,
    settings: [
      s("enable_guest_download", "允许游客下载", "switch", false),
      s("times_every_day", "每人每天下载次数", "number", 20, { min: 0 }),
      s("times_every_ip", "每个 IP 每天下载次数", "number", 50, { min: 0 }),
      s("url_duration", "下载链接有效期（秒）", "number", 60, { min: 10, max: 86400 }),
      s("secret_key", "下载链接签名密钥", "password", "", { secret: true }),
    ],
  },
  {
    name: "vip", label: "VIP 设置", public: true,
    settings: [
      s("enable", "启用 VIP", "switch", false),
      s("icon", "VIP 图标", "image", ""),
      s("download_free", "VIP 免费下载付费文档", "switch", true),
      s("download_discount", "VIP 下载付费文档折扣（0–1，免费下载关闭时生效）", "number", 0.8, { min: 0, max: 1 }),
      s("times_every_day", "VIP 每天下载次数（0 表示同普通用户）", "number", 100, { min: 0, max: 100000 }),
      s("ai_questions_per_day", "VIP 每日 AI 提问次数（-1 不限）", "number", 200, { min: -1, max: 1000000 }),
      s("ai_tokens_per_month", "VIP 每月 AI token 额度（-1 不限）", "number", 5000000, { min: -1, max: 1000000000 }),
    ],
  },
  {
    name: "recharge", label: "充值设置", public: true,
    settings: [
      s("enable", "启用积分充值", "switch", false),
      s("credit_exchange", "每元兑换积分", "number", 10, { min: 1 }),
      s("recharge_discount", "充值折扣（每行 金额:折扣）", "textarea", "100:0.95\n500:0.9\n1000:0.85"),
    ],
  },
  {
    name: "converter", label: "转换设置", public: false,
    settings: [
      s("extension", "页面图片格式", "select", ".svg", { options: [{ value: ".svg", label: "SVG（矢量，清晰）" }, { value: ".png", label: "PNG" }, { value: ".webp", label: "WebP" }] }),
      s("max_preview", "最多预览页数", "number", 50, { min: 1, max: 2000 }),
      s("max_preview_percent", "最多预览比例（%）", "number", 100, { min: 1, max: 100 }),
      s("enable_gzip", "页面图片 gzip 压缩", "switch", true),
      s("timeout", "单个文档转换超时（分钟）", "number", 30, { min: 1, max: 600 }),
      s("concurrency", "同时转换的文档数", "number", 1, { min: 1, max: 8 }),
      s("max_pages", "最大页数（超过则转换失败）", "number", 3000, { min: 1, max: 100000 }),
    ],
  },
  {
    name: "search", label: "搜索设置", public: false,
    settings: [
      s("dictionary", "自定义词典（每行一个词，可选空格后跟词频）", "textarea", "", { maxLength: 200000, placeholder: "如：\n魔豆文库\n人工智能 1000" }),
      s("enable_traditional", "繁简互查（简体查询可找到繁体内容）", "switch", true),
    ],
  },
  {
    name: "captcha", label: "验证码设置", public: true,
    settings: [
      s("type", "验证码类型", "select", "digit", { options: [{ value: "string", label: "字符" }, { value: "math", label: "算术" }, { value: "digit", label: "数字" }] }),
      s("length", "验证码长度", "number", 5, { min: 3, max: 8 }),
      s("width", "图片宽度", "number", 240, { min: 80, max: 600 }),
      s("height", "图片高度", "number", 60, { min: 30, max: 200 }),
    ],
  },
  {
    name: "score", label: "积分设置", public: true,
    settings: [
      s("sign_in", "每日签到奖励", "number", 1, { min: 0, max: 100000 }),
      s("register", "注册奖励", "number", 10, { min: 0, max: 100000 }),
      s("document", "上传文档奖励（每篇）", "number", 5, { min: 0, max: 100000 }),
      s("document_limit", "每天上传奖励次数上限", "number", 5, { min: 0, max: 1000 }),
      s("favorite", "文档被收藏时奖励上传者", "number", 1, { min: 0, max: 100000 }),
      s("favorite_limit", "每天收藏奖励次数上限", "number", 10, { min: 0, max: 1000 }),
    ],
  },
  {
    name: "payment", label: "支付设置", public: false,
    settings: [
      s("order_expire_minutes", "未支付订单自动关闭（分钟）", "number", 30, { min: 5, max: 1440 }),
      s("enable_wechatpay", "启用微信支付（Native 扫码）", "switch", false),
      s("wechatpay_app_id", "微信支付 AppID", "text", "", { maxLength: 64 }),
      s("wechatpay_mch_id", "微信支付商户号", "text", "", { maxLength: 32 }),
      s("wechatpay_api_v3_key", "微信支付 APIv3 密钥（32 位）", "password", "", { secret: true, maxLength: 32 }),
      s("wechatpay_serial_no", "商户证书序列号", "text", "", { maxLength: 64 }),
      s("wechatpay_private_key", "商户 API 私钥（apiclient_key.pem 内容）", "textarea", "", { secret: true, maxLength: 8000, placeholder: "-----BEGIN PRIVATE KEY-----" }),
      s("wechatpay_public_key_id", "微信支付公钥 ID（PUB_KEY_ID_…，平台证书模式留空）", "text", "", { maxLength: 128 }),
      s("wechatpay_public_key", "微信支付公钥（PEM，平台证书模式留空）", "textarea", "", { maxLength: 8000, placeholder: "-----BEGIN PUBLIC KEY-----" }),
      s("wechatpay_base_url", "微信支付接口地址", "text", "https://api.mch.weixin.qq.com", { maxLength: 512 }),
      s("enable_alipay", "启用支付宝", "switch", false),
      s("alipay_app_id", "支付宝 AppID", "text", "", { maxLength: 64 }),
      s("alipay_private_key", "支付宝应用私钥（PEM 或单行）", "textarea", "", { secret: true, maxLength: 8000 }),
      s("alipay_public_key", "支付宝公钥（PEM 或单行）", "textarea", "", { maxLength: 8000 }),
      s("alipay_gateway", "支付宝网关地址", "text", "https://openapi.alipay.com/gateway.do", { maxLength: 512 }),
    ],
  },
  ARTICLE_GROUP,
  COMMENT_GROUP,
  oauthSettings,
  EMAIL_GROUP,
  LLM_GROUP,
  EMBEDDING_GROUP,
  smsSettings,
  MINIPROGRAM_GROUP,
  SSR_GROUP,
  BACKUP_GROUP,
  SPIDER_GROUP,
  OCR_GROUP,
];

export const GROUP_BY_NAME = new Map(GROUPS.map((g) => [g.name, g]));
