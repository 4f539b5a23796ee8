// Form controls of the admin editor that carry their own state (no default export: not an island).
import { useEffect, useRef, useState } from "react";
import { api } from "../api.ts";
import type { FieldDef, Opt } from "./fieldTypes.ts";
import { toast } from "../toast.ts";

export function ImageInput({ f, value, onChange }: { f: FieldDef; value: string; onChange: (v: string) => void }) {
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (picked: File | undefined) => {
    if (!picked || !f.upload) return;
    const form = new FormData();
    form.append("file", picked);
    setBusy(true);
    const r = await api<{ path: string }>("POST", `/upload/${f.upload}`, { form });
    setBusy(false);
    if (file.current) file.current.value = "";
    if (!r.ok || !r.data) return toast(r.message || "上传失败", "error");
    onChange(r.data.path);
    toast("上传成功", "success");
  };
  return (
    <div className="adm-image-input">
      <div className="adm-row">
        <input id={`f-${f.name}`} name={f.name} value={value} placeholder={f.placeholder || "图片地址"} onChange={(e) => onChange(e.target.value)} />
        {f.upload ? <button type="button" className="adm-btn" disabled={busy} onClick={() => file.current?.click()}>{busy ? "上传中…" : "上传图片"}</button> : null}
        <input ref={file} type="file" hidden accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => void upload(e.target.files?.[0])} />
      </div>
      {value ? <img className="adm-thumb" src={value} alt="预览" /> : null}
    </div>
  );
}

/** Checkboxes for an array value (a single stored value counts as a one-element array). */
export function MultiSelect({ f, value, onChange }: { f: FieldDef; value: unknown; onChange: (v: unknown) => void }) {
  const list = Array.isArray(value) ? value : value === null || value === undefined || value === "" ? [] : [value];
  const has = (v: Opt["value"]) => list.some((x) => String(x) === String(v));
  const flip = (v: Opt["value"]) => onChange(has(v) ? list.filter((x) => String(x) !== String(v)) : [...list, v]);
  return (
    <div className="adm-checks" id={`f-${f.name}`} role="group" aria-label={f.label}>
      {(f.options ?? []).map((o) => (
        <label key={o.value} className="adm-check-opt">
          <input type="checkbox" name={f.name} value={o.value} disabled={f.disabled} checked={has(o.value)} onChange={() => flip(o.value)} />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}

/** Picks one row of another list (e.g. a user) by searching it; the value is the row's id. */
export function Lookup({ f, value, onChange }: { f: FieldDef; value: unknown; onChange: (v: unknown) => void }) {
  const cfg = f.lookup!;
  const [text, setText] = useState("");
  const [opts, setOpts] = useState<Opt[] | null>(null);
  const [label, setLabel] = useState("");
  const search = async (wd: string): Promise<Opt[]> => {
    const r = await api<Record<string, unknown>>("GET", cfg.path, { query: { [cfg.query]: wd, size: 10 } });
    const rows = (r.ok && Array.isArray(r.data?.[cfg.key]) ? r.data![cfg.key] : []) as Record<string, unknown>[];
    return rows.map((x) => ({ value: Number(x.id), label: `${String(x[cfg.label])}（ID ${x.id}）` }));
  };
  useEffect(() => {
    if (value) void search(String(value)).then((o) => setLabel(o.find((x) => x.value === Number(value))?.label ?? `ID ${value}`));
  }, []);
  useEffect(() => {
    const wd = text.trim();
    if (!wd) return setOpts(null);
    let live = true;
    const t = setTimeout(() => void search(wd).then((o) => live && setOpts(o)), 250);
    return () => ((live = false), clearTimeout(t));
  }, [text]);
  const shown = label || (value ? `ID ${value}` : "");
  if (f.disabled) return <input id={`f-${f.name}`} name={f.name} value={shown} disabled />;
  const pick = (o: Opt) => (onChange(o.value), setLabel(o.label), setText(""), setOpts(null));
  return (
    <div className="adm-lookup">
      <input id={`f-${f.name}`} name={f.name} type="search" autoComplete="off" value={text} placeholder={f.placeholder || "输入关键词搜索"} onChange={(e) => setText(e.target.value)} />
      {shown ? <p className="adm-help">已选择：{shown}</p> : null}
      {opts && opts.length ? (
        <ul className="adm-lookup-list" role="listbox" aria-label={`${f.label}候选`}>
          {opts.map((o) => <li key={o.value}><button type="button" role="option" aria-selected={o.value === value} onClick={() => pick(o)}>{o.label}</button></li>)}
        </ul>
      ) : opts ? <p className="adm-help">没有匹配的结果</p> : null}
    </div>
  );
}
