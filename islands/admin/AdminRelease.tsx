import { useState } from "react";
import { formatDateTime } from "#src/lib/format.ts";
import { useHydrated } from "./useHydrated.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

interface Check { at: number; current: string; latest: string; url: string; notes: string; has_update: boolean }
interface Entry { version: string; date: string; sections: { title: string; items: string[] }[] }
export interface ReleaseProps {
  release: { version: string; build_date: number; source: string; last_check: Check | null; changelog: Entry[] };
  license: { name: string; excerpt: string; product: string; version: string; url: string };
}

/** A changelog line: `code` spans as code, the rest as text (never HTML). */
const Inline = ({ text }: { text: string }) => <>{text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>;

function CheckResult({ c }: { c: Check }) {
  return (
    <p className="adm-help" role="status">
      {c.has_update ? <b>{`发现新版本 ${c.latest}（当前 ${c.current}）`}</b> : `已是最新版本（当前 ${c.current}，更新源 ${c.latest}）`}
      {c.has_update && /^https?:\/\//.test(c.url) ? <> · <a href={c.url} target="_blank" rel="noopener noreferrer">下载地址</a></> : null}
      {` · 检查于 ${formatDateTime(c.at)}`}
      {c.has_update && c.notes ? <><br />{c.notes}</> : null}
    </p>
  );
}

/** /admin/system/release: version, build date, licence, changelog; update source and check. */
export default function AdminRelease({ release, license }: ReleaseProps) {
  const [source, setSource] = useState(release.source);
  const [check, setCheck] = useState(release.last_check);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();
  const save = async () => {
    const r = await api<{ source: string }>("PUT", "/release/source", { body: { url: source } });
    if (!r.ok) return toast(r.message || "保存失败", "error");
    toast("更新检查地址已保存", "success");
  };
  const run = async () => {
    setBusy(true);
    const r = await api<Check>("POST", "/release");
    setBusy(false);
    if (!r.ok || !r.data) return setError(r.message || "检查失败");
    setError("");
    setCheck(r.data);
  };
  return (
    <>
      <div className="adm-grid-2">
        <section className="adm-card">
          <h2 className="adm-card-title">版本信息</h2>
          <dl className="adm-kv">
            <div><dt>产品</dt><dd>{license.product}</dd></div>
            <div><dt>当前版本</dt><dd>{release.version}</dd></div>
            <div><dt>构建时间</dt><dd>{formatDateTime(release.build_date)}</dd></div>
            <div><dt>开源许可</dt><dd>{license.name ? <a href={license.url} target="_blank" rel="noopener noreferrer">{license.name}</a> : "未声明"}</dd></div>
          </dl>
          {license.excerpt ? <pre className="adm-pre">{license.excerpt}</pre> : null}
        </section>
        <section className="adm-card">
          <h2 className="adm-card-title">检查更新</h2>
          <form className="adm-form" onSubmit={(e) => (e.preventDefault(), void save())}>
            <div className="adm-field">
              <label htmlFor="release-source">更新检查地址</label>
              <div className="adm-control">
                <input id="release-source" type="url" value={source} placeholder="https://example.com/wenku/latest.json" disabled={!ready} onChange={(e) => setSource(e.currentTarget.value)} />
                <p className="adm-help">{"地址需返回 JSON：{version, url, notes}，仅支持 http/https。"}</p>
              </div>
            </div>
            <div className="adm-row">
              <button type="submit" className="adm-btn" disabled={!ready}>保存地址</button>
              <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || busy} onClick={() => void run()}>{busy ? "检查中…" : "检查更新"}</button>
            </div>
          </form>
          {error ? <p className="adm-error" role="alert">{error}</p> : check ? <CheckResult c={check} /> : null}
        </section>
      </div>
      <section className="adm-card">
        <h2 className="adm-card-title">更新日志</h2>
        {release.changelog.length ? release.changelog.map((e) => (
          <article key={e.version}>
            <h3 className="adm-subtitle">{`${e.version}${e.date ? `（${e.date}）` : ""}`}</h3>
            {e.sections.map((s) => (
              <div key={s.title}>
                {s.title ? <h4 style={{ margin: "8px 0 0" }}>{s.title}</h4> : null}
                <ul style={{ paddingLeft: 20, listStyle: "disc", margin: "4px 0 12px" }}>{s.items.map((it, i) => <li key={i}><Inline text={it} /></li>)}</ul>
              </div>
            ))}
          </article>
        )) : <p className="adm-muted">没有找到 CHANGELOG.md。</p>}
      </section>
    </>
  );
}
