import { s, type GroupDef } from "#src/features/settings/define.ts";
import { EMBEDDING_PROVIDERS } from "./presets.ts";

// 向量模型 (issue 16): how page chunks become vectors, and the optional reranker that hybrid
// retrieval (helper C) calls. Admins only: it holds API keys. Changing provider, model, width or
// the chunking builds a new embedding space in the background (see spaces.ts).
export const EMBEDDING_GROUP: GroupDef = {
  name: "embedding", label: "向量模型", public: false,
  settings: [
    s("enable", "启用向量检索", "switch", false),
    s("provider", "向量模型来源", "select", "local", { options: EMBEDDING_PROVIDERS.map((p) => ({ value: p.value, label: p.label })) }),
    s("base_url", "接口地址（base_url）", "text", "", { maxLength: 512, placeholder: "OpenAI 兼容接口地址，选择服务商后自动填写；本地模型留空" }),
    s("api_key", "API Key", "password", "", { secret: true, maxLength: 512, placeholder: "本地模型与 Ollama 可留空" }),
    s("model", "模型名称", "text", "", { maxLength: 128, placeholder: "远程服务的模型名，如 BAAI/bge-m3；本地模型留空" }),
    s("model_path", "本地模型文件夹", "text", "bge-small-zh-v1.5", { maxLength: 512, placeholder: "相对 DATA_DIR/models 的文件夹名，或 DATA_DIR 内的绝对路径" }),
    s("dimensions", "向量维度", "number", 512, { min: 8, max: 4096, placeholder: "须与模型输出一致，如 bge-small-zh-v1.5 为 512、bge-m3 为 1024" }),
    s("batch_size", "每批向量化的片段数", "number", 16, { min: 1, max: 256 }),
    s("chunk_size", "片段长度（字）", "number", 400, { min: 100, max: 2000 }),
    s("chunk_overlap", "片段重叠（字）", "number", 60, { min: 0, max: 500 }),
    s("timeout", "请求超时（秒）", "number", 60, { min: 5, max: 600, placeholder: "一批片段向量化的最长时间" }),
    s("concurrency", "同时向量化的文档数", "number", 1, { min: 1, max: 4 }),
    s("rerank_enable", "启用重排序（rerank）", "switch", false),
    s("rerank_base_url", "重排序接口地址", "text", "https://api.siliconflow.cn/v1", { maxLength: 512, placeholder: "SiliconFlow / Cohere 风格的 /rerank 接口，填写到 /v1 为止" }),
    s("rerank_api_key", "重排序 API Key", "password", "", { secret: true, maxLength: 512 }),
    s("rerank_model", "重排序模型", "text", "BAAI/bge-reranker-v2-m3", { maxLength: 128 }),
    s("rerank_top_n", "重排序候选数", "number", 20, { min: 1, max: 100 }),
  ],
};
