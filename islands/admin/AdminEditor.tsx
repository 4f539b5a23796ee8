// Create/edit form of the generic admin table (no default export: not an island itself).
import { useState } from "react";
import { api } from "../api.ts";
import { FieldInput, FormRow, missingRequired, type FieldDef } from "./AdminKit.tsx";
import { toast } from "../toast.ts";

/** Fills the form from the row (edit) or the defaults (create); saves with POST or PUT. */
export function EditorForm({ entity, fields: all, row, defaults, onSaved, onCancel }: {
  entity: string;
  fields: FieldDef[];
  row: Record<string, unknown> | null;
  defaults: Record<string, unknown>;
  onSaved: () => void;
  onCancel: () => void;
}) {
  // Editing locks create-only fields and drops create-only requirements (an empty password keeps the old one).
  const fields = all.map((f) => ({ ...f, required: f.required === true || (f.required === "create" && !row), disabled: f.disabled || (!!row && f.createOnly) }));
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(fields.map((f) => [f.name, row ? row[f.name] : defaults[f.name] ?? ""])));
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const missing = missingRequired(fields, values);
    if (missing) return toast(missing, "error");
    // Empty number inputs mean "not set": leave them out so the server keeps its default.
    const body = Object.fromEntries(Object.entries(values).filter(([k, v]) => !(v === "" && fields.find((f) => f.name === k)?.kind === "number")));
    setBusy(true);
    const r = row ? await api("PUT", `/${entity}`, { body: { id: row.id, ...body } }) : await api("POST", `/${entity}`, { body });
    setBusy(false);
    if (!r.ok) return toast(r.message || "保存失败", "error");
    toast("保存成功", "success");
    onSaved();
  };
  return (
    <form className="adm-form" onSubmit={submit} noValidate>
      {fields.map((f) => (
        <FormRow key={f.name} f={f}>
          <FieldInput f={f} value={values[f.name]} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} />
        </FormRow>
      ))}
      <div className="adm-form-actions">
        <button type="button" className="adm-btn" onClick={onCancel}>取消</button>
        <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "保存中…" : "保存"}</button>
      </div>
    </form>
  );
}
