// The one browser-side HTTP client (spec §7/§8): JSON under /api/v1, 30 s time-out, errors as
// { status, message } where message is the server's, else status + status text + body.
import { doneProgress, startProgress } from "./site/progress.ts";

export const HTTP_TIMEOUT_MS = 30_000;

export interface ApiResult<T> { ok: boolean; status: number; data?: T; message: string }

type Query = Record<string, string | number | boolean | (string | number)[] | undefined | null>;

export function toQuery(q: Query): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || v === "") continue;
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, String(x));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

export async function api<T = unknown>(method: string, path: string, opts: { query?: Query; body?: unknown; form?: FormData } = {}): Promise<ApiResult<T>> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), HTTP_TIMEOUT_MS);
  startProgress();
  try {
    const res = await fetch(`/api/v1${path}${opts.query ? toQuery(opts.query) : ""}`, {
      method,
      credentials: "same-origin",
      headers: opts.body !== undefined ? { "Content-Type": "application/json" } : undefined,
      body: opts.form ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
      signal: ctrl.signal,
    });
    const text = await res.text();
    let data: any;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {}
    if (res.status === 200) return { ok: true, status: 200, data, message: data?.message ?? "" };
    const message = data?.message || [res.status, res.statusText, text].filter(Boolean).join(" ");
    return { ok: false, status: res.status, data, message };
  } catch (err) {
    const aborted = (err as Error).name === "AbortError";
    return { ok: false, status: 0, message: aborted ? "请求超时，请稍后重试" : "网络错误，请检查网络连接" };
  } finally {
    clearTimeout(timer);
    doneProgress();
  }
}
