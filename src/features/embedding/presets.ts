import { PRESET_BY_NAME } from "#src/features/ai/llm/presets.ts";

// Embedding providers: `local` (an ONNX model folder under DATA_DIR) and the chat presets whose
// OpenAI-compatible API also answers POST /embeddings (DeepSeek, Kimi and Spark do not). The base
// URLs are the chat presets' own, so an admin who set up chat recognises them.

export interface EmbeddingPreset {
  value: string;
  label: string;
  base_url: string;
  model: string;
  dimensions: number;
  /** the most inputs the provider takes in one request */
  max_batch: number;
  /** whether the API takes a `dimensions` parameter (Matryoshka models); else the width is the model's own */
  dimensions_param: boolean;
  hint: string;
}

const chat = (name: string) => PRESET_BY_NAME.get(name)!;
const remote = (name: string, p: Omit<EmbeddingPreset, "value" | "label" | "base_url">): EmbeddingPreset =>
  ({ value: name, label: chat(name).label, base_url: chat(name).base_url, ...p });

export const EMBEDDING_PROVIDERS: EmbeddingPreset[] = [
  { value: "local", label: "本地模型（ONNX 文件夹）", base_url: "", model: "", dimensions: 512, max_batch: 64, dimensions_param: false, hint: "模型文件夹放在 DATA_DIR/models 下，如 bge-small-zh-v1.5（512 维），无需联网" },
  remote("qianwen", { model: "text-embedding-v3", dimensions: 1024, max_batch: 10, dimensions_param: true, hint: "text-embedding-v3 / v4，维度可选 64–1024，每次最多 10 条" }),
  remote("siliconflow", { model: "BAAI/bge-m3", dimensions: 1024, max_batch: 32, dimensions_param: false, hint: "BAAI/bge-m3（1024 维）、BAAI/bge-large-zh-v1.5（1024 维）" }),
  remote("ollama", { model: "bge-m3", dimensions: 1024, max_batch: 64, dimensions_param: false, hint: "先执行 ollama pull bge-m3；本地无需密钥" }),
  remote("doubao", { model: "", dimensions: 2560, max_batch: 64, dimensions_param: false, hint: "模型填写向量模型的推理接入点 ID（ep- 开头），doubao-embedding 为 2560 维" }),
  remote("hunyuan", { model: "hunyuan-embedding", dimensions: 1024, max_batch: 64, dimensions_param: false, hint: "hunyuan-embedding（1024 维）" }),
  remote("qianfan", { model: "bge-large-zh", dimensions: 1024, max_batch: 16, dimensions_param: false, hint: "千帆 v2 向量接口，模型如 bge-large-zh（1024 维）、embedding-v1（384 维）" }),
  remote("gitee", { model: "bge-m3", dimensions: 1024, max_batch: 32, dimensions_param: false, hint: "模型如 bge-m3、bge-large-zh-v1.5（均为 1024 维）" }),
  { value: "custom", label: "自定义（OpenAI 兼容）", base_url: "", model: "", dimensions: 1024, max_batch: 64, dimensions_param: true, hint: "任意 OpenAI 兼容的 /embeddings 接口，填写到 /v1 为止的地址；维度与模型输出不一致时会发送 dimensions 参数" },
];

export const EMBEDDING_PRESET = new Map(EMBEDDING_PROVIDERS.map((p) => [p.value, p]));
