// Profile and password forms of the admin drawers (no default export: not an island itself).
import { useState } from "react";
import { api } from "../api.ts";
import { FieldInput, FormRow, type FieldDef } from "./AdminKit.tsx";
import { toast } from "../toast.ts";

export interface Profile { username: string; realname: string; identity: string; email: string; mobile: string; address: string; signature: string }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function ProfileForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [v, setV] = useState<Profile>(profile);
  const [busy, setBusy] = useState(false);
  // E-mail and mobile can only be set once here (spec §5); later changes need verification.
  const fields: FieldDef[] = [
    { name: "username", label: "用户名", kind: "text", required: true, maxLength: 64 },
    { name: "realname", label: "真实姓名", kind: "text", maxLength: 64 },
    { name: "identity", label: "身份证号", kind: "text", maxLength: 32 },
    { name: "email", label: "电子邮箱", kind: "text", disabled: !!profile.email, maxLength: 128 },
    { name: "mobile", label: "手机号", kind: "text", disabled: true, placeholder: profile.mobile ? "" : "暂未绑定" },
    { name: "address", label: "联系地址", kind: "text", maxLength: 255 },
    { name: "signature", label: "个性签名", kind: "textarea", maxLength: 255 },
  ];
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!v.username.trim()) return toast("请输入登录用户名", "error");
    if (v.email && !EMAIL.test(v.email)) return toast("请输入正确的邮箱", "error");
    const { mobile: _m, ...body } = v;
    setBusy(true);
    const r = await api<{ message: string }>("PUT", "/user/profile", { body: { ...body, email: profile.email ? undefined : body.email } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "修改失败", "error");
    toast(r.message || "修改成功", "success");
    onSaved(v);
  };
  return (
    <form className="adm-form" onSubmit={submit} noValidate>
      {fields.map((f) => (
        <FormRow key={f.name} f={f}>
          <FieldInput f={f} value={v[f.name as keyof Profile]} onChange={(x) => setV({ ...v, [f.name]: String(x) })} />
        </FormRow>
      ))}
      <div className="adm-form-actions"><button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "保存中…" : "保存"}</button></div>
    </form>
  );
}

export function PasswordForm({ username, onDone }: { username: string; onDone: () => void }) {
  const [v, setV] = useState({ old_password: "", new_password: "", confirm: "" });
  const [busy, setBusy] = useState(false);
  const fields: FieldDef[] = [
    { name: "old_password", label: "旧密码", kind: "password", required: true, maxLength: 128 },
    { name: "new_password", label: "新密码", kind: "password", required: true, maxLength: 128, help: "至少 6 位" },
    { name: "confirm", label: "确认密码", kind: "password", required: true, maxLength: 128 },
  ];
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!v.old_password) return toast("请输入旧密码", "error");
    if (!v.new_password) return toast("请输入新密码", "error");
    if (!v.confirm) return toast("请再次输入新密码", "error");
    if (v.confirm !== v.new_password) return toast("两次输入的密码不一致", "error");
    setBusy(true);
    const r = await api<{ message: string }>("PUT", "/user/password", { body: { old_password: v.old_password, new_password: v.new_password } });
    setBusy(false);
    if (!r.ok) return toast(r.message || "修改失败", "error");
    toast(r.message || "密码修改成功", "success");
    setV({ old_password: "", new_password: "", confirm: "" });
    onDone();
  };
  return (
    <form className="adm-form" onSubmit={submit} noValidate>
      <FormRow f={{ name: "pw-username", label: "用户名", kind: "text" }}><input id="f-pw-username" value={username} readOnly disabled /></FormRow>
      {fields.map((f) => (
        <FormRow key={f.name} f={f}>
          <FieldInput f={f} value={v[f.name as keyof typeof v]} onChange={(x) => setV({ ...v, [f.name]: String(x) })} placeholder={f.name === "confirm" ? "请再次输入新密码" : `请输入${f.label}`} />
        </FormRow>
      ))}
      <div className="adm-form-actions"><button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>{busy ? "提交中…" : "修改密码"}</button></div>
    </form>
  );
}
