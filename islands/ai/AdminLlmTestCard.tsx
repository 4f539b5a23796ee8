// The 测试连接 card of the 大模型设置 screen (no default export: not an island itself).
import { useState } from "react";
import { api } from "../api.ts";

interface TestResult { message: string; reply?: string }

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/**
 * Tests the form's current values (saved or not): provider, base_url, api_key (blank = the saved
 * key) and model. Shows the first-token latency and the model's reply, or the provider's error.
 */
export function LlmTestCard({ values, ready }: { values: Record<string, unknown>; ready: boolean }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<({ ok: boolean } & TestResult) | null>(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    // Only fields the form holds: without the form (no right to edit settings) the saved ones are tested.
    const body = Object.fromEntries(["provider", "base_url", "api_key", "model"].filter((k) => k in values).map((k) => [k, str(values[k])]));
    const r = await api<TestResult>("POST", "/llm/test", { body });
    setBusy(false);
    setResult(r.ok && r.data ? { ok: true, ...r.data } : { ok: false, message: r.message || "测试失败" });
  };
  const target = [str(values.model), str(values.base_url)].filter(Boolean).join(" @ ");
  return (
    <div>
      <p className="adm-help" style={{ marginTop: 0 }}>
        用表单中当前填写的服务商、接口地址、API Key 与模型发送一句简短的提问，无需先保存；API Key 留空时使用已保存的密钥（仅发往已保存的接口地址）。最长等待 25 秒。
      </p>
      {target ? <p className="adm-muted" style={{ overflowWrap: "anywhere", fontSize: 13, margin: "0 0 10px" }}>{target}</p> : null}
      <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || busy} onClick={() => void run()}>{busy ? "测试中…" : "测试连接"}</button>
      {result ? (
        <div role="status" data-testid="llm-test-result" style={{ marginTop: 12 }}>
          <p style={{ margin: 0, color: result.ok ? "var(--adm-ok)" : "var(--adm-danger)", fontWeight: 500, overflowWrap: "anywhere" }}>{result.message}</p>
          {result.ok && result.reply ? <blockquote style={{ margin: "8px 0 0", padding: "6px 10px", borderLeft: "3px solid var(--adm-border)", background: "#fafafa", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{`模型回复：${result.reply}`}</blockquote> : null}
        </div>
      ) : null}
    </div>
  );
}
