// Building blocks shared by the admin islands (no default export: not an island itself).
import { useEffect, type ReactNode } from "react";
import { ImageInput, Lookup, MultiSelect } from "./AdminFields.tsx";

export type { FieldDef, Opt, OptGroup } from "./fieldTypes.ts";
import type { FieldDef } from "./fieldTypes.ts";

function useEscape(open: boolean, onClose: () => void) {
  useEffect(() => {
    if (!open) return;
    const key = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", key);
    return () => document.removeEventListener("keydown", key);
  }, [open, onClose]);
}

/** Side drawer from the right: 50% wide, 90% on phones (admin.css). */
export function Drawer({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  useEscape(open, onClose);
  if (!open) return null;
  return (
    <div className="adm-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside className="adm-drawer" role="dialog" aria-modal="true" aria-label={title}>
        <header className="adm-dialog-head"><h2>{title}</h2><button type="button" className="adm-close" aria-label="关闭" onClick={onClose}>×</button></header>
        <div className="adm-dialog-body">{children}</div>
      </aside>
    </div>
  );
}

export function Modal({ open, title, onClose, children, width = 640 }: { open: boolean; title: string; onClose: () => void; children: ReactNode; width?: number }) {
  useEscape(open, onClose);
  if (!open) return null;
  return (
    <div className="adm-overlay adm-overlay-center" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <section className="adm-modal" role="dialog" aria-modal="true" aria-label={title} style={{ width }}>
        <header className="adm-dialog-head"><h2>{title}</h2><button type="button" className="adm-close" aria-label="关闭" onClick={onClose}>×</button></header>
        <div className="adm-dialog-body">{children}</div>
      </section>
    </div>
  );
}

const pad = (n: number) => String(n).padStart(2, "0");
/** ms → value of <input type="datetime-local"> in the browser's zone. */
export function toLocalInput(ms: unknown): string {
  if (typeof ms !== "number" || !ms) return "";
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** One form control for a field definition; values stay typed (numbers, booleans, ms times). */
export function FieldInput({ f, value, onChange, placeholder }: { f: FieldDef; value: unknown; onChange: (v: unknown) => void; placeholder?: string }) {
  const common = { id: `f-${f.name}`, name: f.name, disabled: f.disabled, placeholder: placeholder ?? f.placeholder, maxLength: f.maxLength };
  switch (f.kind) {
    case "textarea":
      return <textarea {...common} rows={4} value={String(value ?? "")} onChange={(e) => onChange(e.target.value)} />;
    case "number":
      return <input {...common} type="number" value={value === "" || value === undefined || value === null ? "" : String(value)} onChange={(e) => onChange(e.target.value === "" ? "" : Number(e.target.value))} />;
    case "switch":
      return (
        <label className="adm-switch">
          <input type="checkbox" id={common.id} name={f.name} disabled={f.disabled} checked={!!value} onChange={(e) => onChange(e.target.checked)} />
          <span className="adm-switch-track" aria-hidden="true" /><span>{value ? "是" : "否"}</span>
        </label>
      );
    case "select": {
      const all = [...(f.options ?? []), ...(f.groups ?? []).flatMap((g) => g.options)];
      const pick = (s: string) => onChange(all.find((o) => String(o.value) === s)?.value ?? s);
      return (
        <select id={common.id} name={f.name} disabled={f.disabled} value={String(value ?? "")} onChange={(e) => pick(e.target.value)}>
          {f.required ? <option value="" disabled>请选择{f.label}</option> : null}
          {(f.options ?? []).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          {(f.groups ?? []).map((g) => <optgroup key={g.label} label={g.label}>{g.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}</optgroup>)}
        </select>
      );
    }
    case "multiselect":
      return <MultiSelect f={f} value={value} onChange={onChange} />;
    case "lookup":
      return <Lookup f={f} value={value} onChange={onChange} />;
    case "image":
      return <ImageInput f={f} value={String(value ?? "")} onChange={onChange} />;
    case "datetime":
      return <input {...common} type="datetime-local" value={toLocalInput(value)} onChange={(e) => onChange(e.target.value ? new Date(e.target.value).getTime() : null)} />;
    case "color":
      return (
        <div className="adm-row">
          <input {...common} value={String(value ?? "")} placeholder={common.placeholder || "#1677ff，留空为默认颜色"} onChange={(e) => onChange(e.target.value)} />
          <input type="color" aria-label={`选择${f.label}`} value={/^#[0-9a-f]{6}$/i.test(String(value)) ? String(value) : "#333333"} onChange={(e) => onChange(e.target.value)} />
        </div>
      );
    default:
      return <input {...common} type={f.kind === "password" ? "password" : "text"} autoComplete={f.kind === "password" ? "new-password" : undefined} value={String(value ?? "")} onChange={(e) => onChange(e.target.value)} />;
  }
}

/** Label + control + help text, laid out by admin.css. */
export function FormRow({ f, children }: { f: FieldDef; children: ReactNode }) {
  return (
    <div className="adm-field">
      <label htmlFor={`f-${f.name}`}>{f.required === true ? <em aria-hidden="true">*</em> : null}{f.label}</label>
      <div className="adm-control">{children}{f.help ? <p className="adm-help">{f.help}</p> : null}</div>
    </div>
  );
}

/** Client-side required check with the same wording as the server. */
export function missingRequired(fields: FieldDef[], v: Record<string, unknown>): string | null {
  for (const f of fields) {
    const x = v[f.name];
    const empty = x === undefined || x === null || (Array.isArray(x) ? !x.length : String(x).trim() === "");
    if (f.required === true && empty) return `${["select", "multiselect", "lookup"].includes(f.kind) ? "请选择" : "请输入"}${f.label}`;
  }
  return null;
}
