import { useEffect, useState } from "react";
import { useHydrated } from "./useHydrated.ts";
import { api } from "../api.ts";
import { FieldInput, FormRow, type FieldDef } from "./AdminKit.tsx";
import { toast } from "../toast.ts";

/** One item of GET /config/list. */
export interface ConfigItem {
  category: string;
  name: string;
  label: string;
  value: string | number | boolean;
  input_type: string;
  placeholder: string;
  options: { value: string; label: string }[];
  secret: boolean;
  has_value: boolean;
}

export interface AdminConfigFormProps {
  category: string;
  items: ConfigItem[];
  /** for a wrapping island: the values after one field changed (e.g. the LLM provider fills base_url); pure */
  derive?: (values: Record<string, unknown>, changed: string) => Record<string, unknown>;
  /** for a wrapping island: told the current (unsaved) values after every change */
  onValues?: (values: Record<string, unknown>) => void;
  /** help text under fields, by field name */
  help?: Record<string, string>;
}

const KINDS = new Set(["text", "textarea", "number", "switch", "select", "image", "password"]);
const toField = (it: ConfigItem): FieldDef => ({
  name: it.name, label: it.label, kind: (KINDS.has(it.input_type) ? it.input_type : "text") as FieldDef["kind"],
  placeholder: it.secret && it.has_value ? "已设置，留空则不修改" : it.placeholder, options: it.options, upload: it.input_type === "image" ? "config" : undefined,
});

/** A settings group as one form, saved in one PUT /config; the server's message shows on failure. */
export default function AdminConfigForm({ category, items: initial, derive, onValues, help }: AdminConfigFormProps) {
  const [items, setItems] = useState(initial);
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(initial.map((i) => [i.name, i.value])));
  const [busy, setBusy] = useState(false);
  const ready = useHydrated();
  useEffect(() => onValues?.(values), [values]);

  const reload = async () => {
    const r = await api<{ config: ConfigItem[] }>("GET", "/config/list", { query: { category } });
    if (!r.ok || !r.data) return;
    setItems(r.data.config);
    setValues(Object.fromEntries(r.data.config.map((i) => [i.name, i.value])));
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const config = items.map((i) => ({ category, name: i.name, value: values[i.name] === undefined ? "" : values[i.name] }));
    setBusy(true);
    const r = await api<{ message: string }>("PUT", "/config", { body: { config } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "保存失败", "error");
    toast("保存成功", "success");
    void reload();
  };
  return (
    <form className="adm-form adm-config-form" onSubmit={submit} noValidate>
      {items.map((it) => {
        const f = { ...toField(it), help: help?.[it.name] };
        return (
          <FormRow key={it.name} f={f}>
            <FieldInput f={f} value={values[it.name]} onChange={(v) => setValues((s) => (derive ? derive({ ...s, [it.name]: v }, it.name) : { ...s, [it.name]: v }))} />
          </FormRow>
        );
      })}
      <div className="adm-form-actions adm-form-actions-left">
        <button type="submit" className="adm-btn adm-btn-primary" disabled={!ready || busy}>{busy ? "保存中…" : "保存"}</button>
      </div>
    </form>
  );
}
