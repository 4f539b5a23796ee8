// The 处罚作者 dialog of the report list (no default export: part of AdminReportList).
import { useState } from "react";
import { FieldInput, FormRow, missingRequired, type FieldDef, type Opt } from "../admin/AdminKit.tsx";

export interface PunishChoice { punish_type: number[]; days: number; reason: string }

const DAYS: Opt[] = [{ value: 1, label: "1 天" }, { value: 7, label: "7 天" }, { value: 30, label: "30 天" }, { value: 90, label: "90 天" }, { value: 365, label: "1 年" }, { value: 0, label: "永久" }];

export function PunishForm({ punishTypes, count, onCancel, onSubmit }: { punishTypes: Opt[]; count: number; onCancel: () => void; onSubmit: (c: PunishChoice) => void }) {
  const [v, setV] = useState<Record<string, unknown>>({ punish_type: [2], days: 7, reason: "" });
  const [error, setError] = useState("");
  const fields: FieldDef[] = [
    { name: "punish_type", label: "处罚类型", kind: "multiselect", required: true, options: punishTypes, help: "可多选；「禁用账号」会让作者立即下线" },
    { name: "days", label: "处罚时长", kind: "select", required: true, options: DAYS },
    { name: "reason", label: "处罚原因", kind: "textarea", maxLength: 255, help: "留空则写明被举报的原因；会展示给被处罚的用户" },
  ];
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const missing = missingRequired(fields, v);
    if (missing) return setError(missing);
    onSubmit({ punish_type: v.punish_type as number[], days: Number(v.days), reason: String(v.reason ?? "") });
  };
  return (
    <form className="adm-form" noValidate onSubmit={submit}>
      <p className="adm-muted">{`将处罚所选 ${count} 条举报所涉内容的作者，举报随之标记为已处理。`}</p>
      {fields.map((f) => <FormRow key={f.name} f={f}><FieldInput f={f} value={v[f.name]} onChange={(x) => (setV({ ...v, [f.name]: x }), setError(""))} /></FormRow>)}
      {error ? <p className="adm-help" role="alert" style={{ color: "var(--adm-danger)" }}>{error}</p> : null}
      <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={onCancel}>取消</button><button type="submit" className="adm-btn adm-btn-danger">确定处罚</button></div>
    </form>
  );
}
