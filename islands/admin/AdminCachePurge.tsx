import { useState } from "react";
import { useHydrated } from "./useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

/** Under /admin/config/ssr: empties the anonymous page cache (DELETE /ssr/cache). */
export default function AdminCachePurge({ entries, bytes }: { entries: number; bytes: number }) {
  const [n, setN] = useState(entries);
  const ready = useHydrated();
  const purge = async () => {
    const r = await api<{ cleared: number }>("DELETE", "/ssr/cache");
    if (!r.ok) return toast(r.message || "操作失败", "error");
    setN(0);
    toast(`已清空 ${r.data?.cleared ?? 0} 个缓存页面`, "success");
  };
  return (
    <div className="adm-row">
      <span className="adm-help" role="status">{`当前缓存 ${n} 个页面${n === entries && bytes ? `（约 ${Math.ceil(bytes / 1024)} KB）` : ""}`}</span>
      <button type="button" className="adm-btn adm-btn-danger" disabled={!ready} onClick={() => void purge()}>清空页面缓存</button>
    </div>
  );
}
