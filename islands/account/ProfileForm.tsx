import { useEffect, useState } from "react";
import { isMobile } from "#src/lib/format.ts";
import { api } from "../api.ts";
import { flashThenGo, toast } from "../toast.ts";

export interface ProfileFields { username: string; realname: string; identity: string; email: string; mobile: string; address: string; signature: string }

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** Spec §2 profile form with the §5 rules: username required, e-mail format, e-mail and mobile locked once set. */
export default function ProfileForm({ user }: { user: ProfileFields }) {
  const [f, setF] = useState<ProfileFields>(user);
  const [locked, setLocked] = useState({ email: !!user.email, mobile: !!user.mobile });
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const set = (k: keyof ProfileFields) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setF({ ...f, [k]: e.target.value });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const username = f.username.trim();
    if (!username) return toast("请输入登录用户名", "error");
    if (!locked.email && f.email.trim() && !EMAIL.test(f.email.trim())) return toast("请输入正确的邮箱", "error");
    if (!locked.mobile && f.mobile.trim() && !isMobile(f.mobile.trim())) return toast("请输入正确的手机号", "error");
    const body: Partial<ProfileFields> = { username, realname: f.realname.trim(), identity: f.identity.trim(), address: f.address.trim(), signature: f.signature.trim() };
    if (!locked.email) body.email = f.email.trim();
    if (!locked.mobile) body.mobile = f.mobile.trim();
    setBusy(true);
    const r = await api<{ user: ProfileFields }>("PUT", "/user/profile", { body });
    setBusy(false);
    if (!r.ok) return toast(r.message || "修改失败", "error");
    // The header shows the username: reload when it changed so every copy agrees.
    if (username !== user.username) return flashThenGo("修改成功", location.pathname);
    if (r.data?.user) setF({ ...r.data.user });
    setLocked({ email: !!r.data?.user.email, mobile: !!r.data?.user.mobile });
    toast("修改成功", "success");
  };

  const text = (k: keyof ProfileFields, label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label className="field">
      <span>{label}</span>
      <input name={k} value={f[k]} onChange={set(k)} {...extra} />
    </label>
  );
  return (
    <form className="form form-narrow" onSubmit={submit} noValidate>
      {text("username", "用户名", { autoComplete: "username", maxLength: 64, placeholder: "请输入登录用户名" })}
      {text("realname", "真实姓名", { autoComplete: "name", maxLength: 64, placeholder: "请输入真实姓名" })}
      {text("identity", "身份证号", { maxLength: 32, placeholder: "请输入身份证号" })}
      {text("email", "邮箱", { type: "email", autoComplete: "email", maxLength: 254, disabled: locked.email, placeholder: "请输入邮箱" })}
      {text("mobile", "手机号", { type: "tel", inputMode: "numeric", autoComplete: "tel", maxLength: 11, disabled: locked.mobile, placeholder: "请输入手机号" })}
      {text("address", "地址", { autoComplete: "street-address", maxLength: 255, placeholder: "请输入联系地址" })}
      <label className="field">
        <span>个性签名</span>
        <textarea name="signature" rows={3} maxLength={255} value={f.signature} onChange={set("signature")} placeholder="介绍一下自己吧" />
      </label>
      {locked.email || locked.mobile ? <p className="field-hint">邮箱和手机号设置后不可在此修改。</p> : null}
      <div><button className="btn btn-primary" type="submit" disabled={!ready || busy}>{busy ? "保存中…" : "保存修改"}</button></div>
    </form>
  );
}
