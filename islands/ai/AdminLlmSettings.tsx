import { useState } from "react";
import { useHydrated } from "../admin/useHydrated.ts";
import AdminConfigForm, { type ConfigItem } from "../admin/AdminConfigForm.tsx";
import { LlmTestCard } from "./AdminLlmTestCard.tsx";

interface Preset { value: string; label: string; base_url: string; model: string; hint: string }

export interface AdminLlmSettingsProps {
  /** the `llm` settings group; empty when this admin may not edit settings */
  items: ConfigItem[];
  providers: Preset[];
  canTest: boolean;
}

/**
 * /admin/ai/llm and /admin/config/llm: the generic settings form, where choosing a provider fills
 * base_url (and the model when it is empty or still the previous provider's default), plus the
 * 测试连接 card that tests the form's unsaved values.
 */
export default function AdminLlmSettings({ items, providers, canTest }: AdminLlmSettingsProps) {
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(items.map((i) => [i.name, i.value])));
  const ready = useHydrated();
  const preset = (name: unknown) => providers.find((p) => p.value === name);

  const derive = (v: Record<string, unknown>, changed: string) => {
    if (changed !== "provider") return v;
    const next = preset(v.provider);
    if (!next) return v;
    const before = preset(values.provider);
    const model = String(v.model ?? "").trim();
    return {
      ...v,
      base_url: next.base_url || v.base_url,
      model: next.model && (!model || model === before?.model) ? next.model : v.model,
    };
  };
  const hint = preset(values.provider)?.hint ?? "";

  // Side by side on wide screens, the test card staying in view while the long form scrolls.
  return (
    <div style={{ display: "flex", flexWrap: "wrap", gap: 16, alignItems: "flex-start" }}>
      <section className="adm-card" style={{ flex: "3 1 560px" }}>
        <h2 className="adm-card-title">大模型设置</h2>
        {items.length
          ? <AdminConfigForm category="llm" items={items} derive={derive} onValues={setValues} help={hint ? { provider: hint } : undefined} />
          : <p className="adm-muted">你没有修改系统设置的权限，以下测试使用已保存的设置。</p>}
      </section>
      {canTest ? (
        <section className="adm-card" style={{ flex: "1 1 300px", position: "sticky", top: 72 }}>
          <h2 className="adm-card-title">测试连接</h2>
          <LlmTestCard values={values} ready={ready} />
        </section>
      ) : null}
    </div>
  );
}
