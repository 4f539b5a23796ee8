import { useState } from "react";
import { useHydrated } from "../admin/useHydrated.ts";
import AdminConfigForm, { type ConfigItem } from "../admin/AdminConfigForm.tsx";
import { EmbeddingTestCard } from "./EmbeddingTestCard.tsx";

interface Preset { value: string; label: string; base_url: string; model: string; dimensions: number; hint: string }

export interface AdminEmbeddingSettingsProps {
  /** the `embedding` settings group; empty when this admin may not edit settings */
  items: ConfigItem[];
  providers: Preset[];
  canTest: boolean;
}

const HELP: Record<string, string> = {
  model_path: "本地模型：把 ONNX 导出的模型文件夹（含 config.json、tokenizer.json、onnx/model.onnx）放到 DATA_DIR/models 下，这里填写文件夹名。",
  dimensions: "修改模型、维度或片段设置后，系统会在后台用新设置重建向量索引，完成前继续使用当前索引。",
  chunk_size: "每个片段约多少字（不跨页）；中文建议 300–600。",
};

/**
 * The settings half of /admin/ai/embedding: the generic settings form, where choosing a provider
 * fills its base URL, model and width (when the model is empty or still the previous preset's), plus
 * the 测试连接 card.
 */
export default function AdminEmbeddingSettings({ items, providers, canTest }: AdminEmbeddingSettingsProps) {
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(items.map((i) => [i.name, i.value])));
  const ready = useHydrated();
  const preset = (name: unknown) => providers.find((p) => p.value === name);

  const derive = (v: Record<string, unknown>, changed: string) => {
    if (changed !== "provider") return v;
    const next = preset(v.provider);
    if (!next) return v;
    const before = preset(values.provider);
    const model = String(v.model ?? "").trim();
    const keepModel = model && model !== before?.model;
    return {
      ...v,
      base_url: next.base_url,
      model: keepModel ? v.model : next.model,
      dimensions: keepModel ? v.dimensions : next.dimensions,
    };
  };
  const hint = preset(values.provider)?.hint ?? "";

  return (
    <div style={{ display: "flex", flexWrap: "wrap", gap: 16, alignItems: "flex-start" }}>
      <section className="adm-card" style={{ flex: "3 1 560px" }}>
        <h2 className="adm-card-title">向量模型设置</h2>
        {items.length
          ? <AdminConfigForm category="embedding" items={items} derive={derive} onValues={setValues} help={{ ...HELP, ...(hint ? { provider: hint } : {}) }} />
          : <p className="adm-muted">你没有修改系统设置的权限，以下测试使用已保存的设置。</p>}
      </section>
      {canTest ? (
        <section className="adm-card" style={{ flex: "1 1 300px", position: "sticky", top: 72 }}>
          <h2 className="adm-card-title">测试连接</h2>
          <EmbeddingTestCard values={values} ready={ready} />
        </section>
      ) : null}
    </div>
  );
}
