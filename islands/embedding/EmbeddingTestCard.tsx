// The 测试连接 card of the 向量模型 screen (no default export: not an island itself).
import { useState } from "react";
import { api } from "../api.ts";

interface TestResult { message: string; dimensions?: number; expected?: number; latency_ms?: number }

const FIELDS = ["provider", "base_url", "api_key", "model", "model_path", "dimensions"];
const val = (v: unknown) => (typeof v === "string" ? v.trim() : v);

/**
 * Embeds one sample sentence with the form's current values (saved or not; a blank API key means
 * the saved one, sent only to the saved address) and shows the width and the time, or the error.
 */
export function EmbeddingTestCard({ values, ready }: { values: Record<string, unknown>; ready: boolean }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<({ ok: boolean } & TestResult) | null>(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    const body = Object.fromEntries(FIELDS.filter((k) => k in values && val(values[k]) !== "").map((k) => [k, val(values[k])]));
    const r = await api<TestResult>("POST", "/embedding/test", { body });
    setBusy(false);
    const widthOk = r.data?.dimensions === r.data?.expected;
    setResult(r.ok && r.data ? { ok: widthOk, ...r.data } : { ok: false, message: r.message || "测试失败" });
  };
  return (
    <div>
      <p className="adm-help" style={{ marginTop: 0 }}>
        用表单中当前填写的设置把一句示例文字转为向量，无需先保存：显示向量维度与耗时。本地模型首次加载需要几秒。
      </p>
      <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || busy} onClick={() => void run()}>{busy ? "测试中…" : "测试连接"}</button>
      {result ? (
        <p role="status" data-testid="embedding-test-result" style={{ margin: "12px 0 0", color: result.ok ? "var(--adm-ok)" : "var(--adm-danger)", fontWeight: 500, overflowWrap: "anywhere" }}>{result.message}</p>
      ) : null}
    </div>
  );
}
