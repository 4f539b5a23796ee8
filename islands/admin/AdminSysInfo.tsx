import { useCallback, useEffect, useState } from "react";
import { formatBytes } from "#src/lib/format.ts";
import { api } from "../api.ts";

interface Tool { name: string; label: string; installed: boolean; version: string; package: string; error: string }
interface Device {
  hostname: string; os: string; cpu_model: string; cpu_cores: number; load: number[]; memory_total: number; memory_used: number;
  disk_total: number; disk_used: number; disk_path: string; bun_version: string; uptime: number; os_uptime: number;
}

function duration(s: number): string {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d} 天 ${h} 小时` : h ? `${h} 小时 ${m} 分钟` : `${m} 分钟`;
}

function Meter({ used, total }: { used: number; total: number }) {
  const pct = total ? Math.round((used / total) * 100) : 0;
  return (
    <span className="adm-meter" title={`${pct}%`}>
      <span className="adm-meter-bar"><i style={{ width: `${pct}%` }} className={pct >= 90 ? "danger" : pct >= 75 ? "warn" : ""} /></span>
      {formatBytes(used)} / {formatBytes(total)}（{pct}%）
    </span>
  );
}

/** Server device figures (first render from the server) and converter tools (probed on load). */
export default function AdminSysInfo({ device: initial }: { device: Device }) {
  const [device, setDevice] = useState(initial);
  const [tools, setTools] = useState<Tool[] | null>(null);
  const [error, setError] = useState("");
  const load = useCallback(async () => {
    const [d, e] = await Promise.all([api<Device>("GET", "/device"), api<{ envs: Tool[] }>("GET", "/envs")]);
    if (d.ok && d.data) setDevice(d.data);
    if (e.ok && e.data) setTools(e.data.envs);
    setError(!d.ok ? d.message : !e.ok ? e.message : "");
  }, []);
  useEffect(() => void load(), [load]);
  const rows: [string, React.ReactNode][] = [
    ["主机", `${device.hostname}（${device.os}）`],
    ["CPU", `${device.cpu_model || "未知"} × ${device.cpu_cores}`],
    ["系统负载", `${device.load.join(" / ")}（1/5/15 分钟）`],
    ["内存", <Meter used={device.memory_used} total={device.memory_total} />],
    ["数据盘", <><Meter used={device.disk_used} total={device.disk_total} /> <code>{device.disk_path}</code></>],
    ["Bun", device.bun_version],
    ["运行时长", `程序 ${duration(device.uptime)}，系统 ${duration(device.os_uptime)}`],
  ];
  return (
    <div className="adm-grid-2">
      <section className="adm-card">
        <h2 className="adm-card-title">服务器<button type="button" className="adm-link" onClick={() => void load()}>刷新</button></h2>
        {error ? <p className="adm-error">{error}</p> : null}
        <dl className="adm-kv">{rows.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
      </section>
      <section className="adm-card">
        <h2 className="adm-card-title">文档转换工具</h2>
        {!tools ? <p className="adm-muted">检测中…</p> : (
          <ul className="adm-tools">
            {tools.map((t) => (
              <li key={t.name}>
                <span className={t.installed && !t.error ? "adm-tag adm-tag-ok" : "adm-tag adm-tag-bad"}>{t.installed ? (t.error ? "异常" : "已安装") : "未安装"}</span>
                <div>
                  <strong>{t.name}</strong> <span className="adm-muted">{t.label}</span>
                  <p className="adm-help">{t.installed ? t.error || t.version || "版本未知" : <>安装：<code>apt-get install {t.package}</code></>}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
