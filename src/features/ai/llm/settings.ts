import { s, type GroupDef } from "#src/features/settings/define.ts";
import { LLM_PROVIDERS } from "./presets.ts";

export const DEFAULT_SYSTEM_PROMPT = "你是“{sitename}”文库的 AI 助手。请只根据提供的文档片段回答用户的问题，使用简体中文，条理清晰，可以使用 Markdown。引用片段内容时，在相应句子末尾用 [编号] 标注来源，例如 [1]、[2]；不要编造片段中没有的信息或编号。如果片段不足以回答，请如实说明，并给出可能的查找方向。";

// The model provider and the AI chat rules; admins only (holds the API key).
export const LLM_GROUP: GroupDef = {
  name: "llm", label: "大模型设置", public: false,
  settings: [
    s("enable", "启用 AI 对话", "switch", false),
    s("provider", "模型服务商", "select", "deepseek", { options: LLM_PROVIDERS.map((p) => ({ value: p.value, label: p.label })) }),
    s("base_url", "接口地址（base_url）", "text", "https://api.deepseek.com", { maxLength: 512, placeholder: "OpenAI 兼容接口地址，选择服务商后自动填写" }),
    s("api_key", "API Key", "password", "", { secret: true, maxLength: 512, placeholder: "本地 Ollama 可留空" }),
    s("model", "模型名称", "text", "deepseek-chat", { maxLength: 128 }),
    s("temperature", "温度（0–2）", "number", 0.3, { min: 0, max: 2 }),
    s("max_tokens", "最大输出 token 数", "number", 2048, { min: 64, max: 65536 }),
    s("context_tokens", "参考资料 token 预算", "number", 6000, { min: 500, max: 200000, placeholder: "放入提示词的文档片段与历史对话的上限（估算）" }),
    s("timeout", "请求超时（秒）", "number", 60, { min: 5, max: 600, placeholder: "等待首个字与两段输出之间的最长时间" }),
    s("system_prompt", "系统提示词", "textarea", DEFAULT_SYSTEM_PROMPT, { maxLength: 4000, placeholder: "{sitename} 会替换为网站名称" }),
    s("top_k", "每次检索的参考页数", "number", 6, { min: 1, max: 20 }),
    s("max_question_length", "问题最大长度（字）", "number", 2000, { min: 50, max: 20000 }),
    s("history_turns", "携带的历史轮数", "number", 4, { min: 0, max: 20 }),
    s("suggestions", "推荐问题（每行一个）", "textarea", "这个文库里有哪些关于物理公式的资料？\n帮我总结一下公司规章制度的要点\n请假审批需要经过哪些流程？", { maxLength: 2000 }),
  ],
};
