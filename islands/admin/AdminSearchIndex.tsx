import { useEffect, useRef, useState } from "react";
import { useHydrated } from "./useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface IndexStatus { status: string; progress: number; error: string; rebuilt_at: number | null; stale: boolean }

const LABEL: Record<string, string> = { none: "未重建过", queued: "排队中", running: "重建中", done: "已完成", failed: "失败" };

/** Below /admin/config/search: starts a rebuild of the search index and follows its progress. */
export default function AdminSearchIndex({ initial }: { initial: IndexStatus }) {
  const [s, setS] = useState(initial);
  const ready = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const active = s.status === "queued" || s.status === "running";

  const poll = async () => {
    const r = await api<IndexStatus>("GET", "/renew/document/index");
    if (r.ok && r.data) setS(r.data);
  };
  useEffect(() => {
    if (!active) return;
    timer.current = setTimeout(poll, 1000);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [s]);

  const start = async () => {
    const r = await api<IndexStatus>("PUT", "/renew/document/index");
    if (!r.ok) return toast(r.message || "操作失败", "error");
    setS(r.data!);
    toast("已开始重建索引");
  };
  const when = s.rebuilt_at ? new Date(s.rebuilt_at).toLocaleString("zh-CN", { hour12: false }) : "";
  return (
    <div className="adm-form adm-config-form">
      <p className="adm-help">文档的转换、编辑与删除会即时更新索引；修改词典或繁简设置后，请重建索引让已有文档按新设置重新分词。重建在后台进行，期间搜索照常可用。</p>
      {s.stale && !active ? <p role="alert" className="adm-help" style={{ color: "var(--adm-danger)" }}>词典或繁简设置已修改，建议重建索引。</p> : null}
      <div className="adm-row">
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || active} onClick={start}>{active ? "重建中…" : "重建索引"}</button>
        <span role="status" className="adm-help">
          状态：{LABEL[s.status] ?? s.status}{active ? `（${s.progress}%）` : ""}{s.status === "failed" && s.error ? `：${s.error}` : ""}{when ? ` · 上次完成：${when}` : ""}
        </span>
      </div>
      {active ? <progress max={100} value={s.progress} aria-label="重建进度" style={{ width: "100%" }} /> : null}
    </div>
  );
}
