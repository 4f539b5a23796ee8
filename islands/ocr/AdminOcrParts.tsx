// Pieces of the OCR admin list (no default export: not an island itself).
import { useEffect, useState } from "react";
import { api } from "../api.ts";

export type OcrRow = {
  document_id: number; uuid: string; title: string; ext: string; document_pages: number;
  status: number; status_label: string; engine: string; pages: number; done: number; failed: number;
  confidence: number; ms: number; error: string; updated_at: number;
};
type PageRow = { page: number; status: number; status_label: string; engine: string; confidence: number; ms: number; chars: number; error: string };

export const TONE: Record<number, string> = { 0: "adm-tag", 1: "adm-tag adm-tag-warn", 2: "adm-tag adm-tag-ok", 3: "adm-tag adm-tag-bad" };
export const ENGINE: Record<string, string> = { tesseract: "Tesseract.js", paddle: "PaddleOCR" };
/** 1234 ms → "1.2 秒", 95000 → "1 分 35 秒". */
export const seconds = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} 秒` : `${Math.floor(ms / 60_000)} 分 ${Math.round((ms % 60_000) / 1000)} 秒`);
const WRAP = { whiteSpace: "normal", minWidth: 160, maxWidth: 360 } as const;

/** The page rows of one document, loaded when its row is expanded. */
export function OcrPages({ documentId, colSpan }: { documentId: number; colSpan: number }) {
  const [rows, setRows] = useState<PageRow[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    void api<{ ocr_page: PageRow[] }>("GET", "/ocr/pages", { query: { document_id: documentId } }).then((r) => {
      if (r.ok && r.data) setRows(r.data.ocr_page);
      else setError(r.message || "加载失败");
    });
  }, [documentId]);
  return (
    <tr>
      <td colSpan={colSpan} style={{ background: "#fafafa", paddingLeft: 48 }}>
        {error ? <p className="adm-muted">{error}</p> : !rows ? <p className="adm-muted">加载中…</p> : (
          <table className="adm-table" aria-label="页面识别结果">
            <thead><tr><th>页码</th><th>状态</th><th>引擎</th><th>用时</th><th>置信度</th><th>字数</th><th>说明</th></tr></thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.page}>
                  <td>{`第 ${p.page} 页`}</td>
                  <td><span className={TONE[p.status] ?? "adm-tag"}>{p.status_label}</span></td>
                  <td>{ENGINE[p.engine] ?? (p.engine || "—")}</td>
                  <td className="adm-nowrap">{p.ms ? seconds(p.ms) : "—"}</td>
                  <td>{p.status === 2 ? `${p.confidence.toFixed(1)}%` : "—"}</td>
                  <td>{p.status === 2 ? p.chars : "—"}</td>
                  <td style={WRAP}>{p.error || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </td>
    </tr>
  );
}
