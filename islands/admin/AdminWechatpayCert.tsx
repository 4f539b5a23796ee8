import { useState } from "react";
import { formatDateTime } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { useHydrated } from "./useHydrated.ts";

interface Cert { serial_no: string; effective_time?: string | number | null; expire_time?: string | number | null; fingerprint?: string }
interface CertAnswer { mode: "public_key" | "platform_cert"; certificates: Cert[] }

const MODE: Record<CertAnswer["mode"], string> = {
  public_key: "微信支付公钥模式（用配置的公钥验签）",
  platform_cert: "平台证书模式（从微信支付下载的平台证书验签）",
};

/** WeChat answers RFC 3339 strings ("2026-01-01T10:00:00+08:00"); ms numbers are accepted too. */
function when(v: Cert["effective_time"]): string {
  if (v === null || v === undefined || v === "") return "—";
  const ms = typeof v === "number" ? v : Date.parse(v);
  return Number.isFinite(ms) ? formatDateTime(ms) : String(v);
}

/** Asks GET /wechatpay/cert, which really talks to WeChat Pay with the saved settings. */
export default function AdminWechatpayCert() {
  const ready = useHydrated();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: true; data: CertAnswer } | { ok: false; message: string } | null>(null);
  const check = async () => {
    setBusy(true);
    const r = await api<CertAnswer>("GET", "/wechatpay/cert");
    setBusy(false);
    setResult(r.ok && r.data ? { ok: true, data: r.data } : { ok: false, message: r.message || "获取失败" });
  };
  const now = Date.now();
  return (
    <div className="adm-cert">
      <p className="adm-muted">保存上面的微信支付配置后，点击按钮用当前配置请求微信支付，核对验签所用的公钥或平台证书。</p>
      <div className="adm-row">
        <button type="button" className="adm-btn adm-btn-primary" disabled={!ready || busy} onClick={() => void check()}>{busy ? "获取中…" : "获取证书"}</button>
      </div>
      {result && !result.ok ? <p className="adm-error adm-cert-error" role="alert">{result.message}</p> : null}
      {result?.ok ? (
        <div className="adm-cert-result" role="status">
          <dl className="adm-kv">
            <div><dt>验签方式</dt><dd>{MODE[result.data.mode] ?? result.data.mode}</dd></div>
            <div><dt>证书数量</dt><dd>{result.data.certificates.length}</dd></div>
          </dl>
          {result.data.certificates.map((cert) => {
            const expire = typeof cert.expire_time === "number" ? cert.expire_time : Date.parse(String(cert.expire_time ?? ""));
            const expired = Number.isFinite(expire) && expire < now;
            return (
              <dl key={cert.serial_no} className="adm-kv adm-cert-item">
                <div><dt>{result.data.mode === "public_key" ? "公钥 ID" : "证书序列号"}</dt><dd><code>{cert.serial_no}</code>{expired ? <span className="adm-tag adm-tag-bad">已过期</span> : null}</dd></div>
                {result.data.mode === "public_key" && !cert.effective_time && !cert.expire_time
                  ? <div><dt>有效期</dt><dd>公钥不设有效期，更换后请同时更新公钥 ID 与公钥</dd></div>
                  : (
                    <>
                      <div><dt>生效时间</dt><dd>{when(cert.effective_time)}</dd></div>
                      <div><dt>过期时间</dt><dd>{when(cert.expire_time)}</dd></div>
                    </>
                  )}
                <div><dt>指纹</dt><dd><code className="adm-break">{cert.fingerprint || "—"}</code></dd></div>
              </dl>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
