// Every provider of spec §3 speaks the OpenAI chat-completions protocol at these base URLs
// (design.md §6); the admin form fills base_url from here when a provider is chosen, still editable.

export interface ProviderPreset { value: string; label: string; base_url: string; model: string; hint: string }

export const LLM_PROVIDERS: ProviderPreset[] = [
  { value: "ollama", label: "Ollama（本地）", base_url: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b", hint: "本地 Ollama 无需密钥，模型名如 qwen2.5:7b" },
  { value: "deepseek", label: "DeepSeek 深度求索", base_url: "https://api.deepseek.com", model: "deepseek-chat", hint: "模型如 deepseek-chat、deepseek-reasoner" },
  { value: "qianwen", label: "通义千问（阿里云百炼）", base_url: "https://dashscope.aliyuncs.com/compatible-mode/v1", model: "qwen-plus", hint: "DashScope 兼容模式，模型如 qwen-plus、qwen-max" },
  { value: "hunyuan", label: "腾讯混元", base_url: "https://api.hunyuan.cloud.tencent.com/v1", model: "hunyuan-turbos-latest", hint: "模型如 hunyuan-turbos-latest" },
  { value: "qianfan", label: "百度千帆", base_url: "https://qianfan.baidubce.com/v2", model: "ernie-4.0-turbo-8k", hint: "千帆 v2 接口，密钥为 bce-v3 开头的 API Key" },
  { value: "doubao", label: "字节豆包（火山方舟）", base_url: "https://ark.cn-beijing.volces.com/api/v3", model: "", hint: "模型填写推理接入点 ID（ep- 开头）" },
  { value: "xunfei", label: "讯飞星火", base_url: "https://spark-api-open.xf-yun.com/v1", model: "generalv3.5", hint: "密钥填写控制台的 APIPassword" },
  { value: "kimi", label: "Kimi（月之暗面）", base_url: "https://api.moonshot.cn/v1", model: "moonshot-v1-8k", hint: "模型如 moonshot-v1-8k" },
  { value: "siliconflow", label: "硅基流动", base_url: "https://api.siliconflow.cn/v1", model: "Qwen/Qwen2.5-7B-Instruct", hint: "模型如 Qwen/Qwen2.5-7B-Instruct" },
  { value: "gitee", label: "Gitee AI（模力方舟）", base_url: "https://ai.gitee.com/v1", model: "Qwen2.5-72B-Instruct", hint: "模型如 Qwen2.5-72B-Instruct" },
  { value: "custom", label: "自定义（OpenAI 兼容）", base_url: "", model: "", hint: "任意 OpenAI 兼容接口，填写到 /v1 为止的地址" },
];

export const PRESET_BY_NAME = new Map(LLM_PROVIDERS.map((p) => [p.value, p]));
