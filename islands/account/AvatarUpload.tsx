import { useEffect, useRef, useState } from "react";
import { api } from "../api.ts";
import { flashThenGo, toast } from "../toast.ts";
import { Avatar } from "../site/UserMenu.tsx";

const MAX_BYTES = 5 * 1024 * 1024;

/** Click the avatar to pick an image; the server checks it by content, crops it to 200×200 and stores it. */
export default function AvatarUpload({ src, name }: { src: string; name: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const upload = async (file: File) => {
    if (file.size > MAX_BYTES) return toast("图片大小不能超过 5 MB", "error");
    const form = new FormData();
    form.append("file", file);
    setBusy(true);
    const r = await api<{ avatar: string }>("POST", "/upload/avatar", { form });
    setBusy(false);
    if (!r.ok) return toast(r.message || "头像上传失败", "error");
    // Header, drawer and side navigation all show the avatar: reload so every copy updates.
    flashThenGo("头像更新成功", location.pathname + location.search);
  };
  return (
    <div className="avatar-upload">
      <button type="button" className={busy ? "avatar-upload-btn busy" : "avatar-upload-btn"} disabled={!ready || busy} onClick={() => input.current?.click()} aria-label="更换头像" title="更换头像">
        <Avatar src={src} name={name} size={96} />
        <span className="avatar-upload-mask">{busy ? "上传中…" : "更换头像"}</span>
      </button>
      <span className="avatar-upload-badge" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="14" height="14"><path fill="currentColor" d="M9 4 7.5 6H4a1 1 0 0 0-1 1v12a1 1 0 0 0 1 1h16a1 1 0 0 0 1-1V7a1 1 0 0 0-1-1h-3.5L15 4zm3 5a4 4 0 1 1 0 8 4 4 0 0 1 0-8m0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4" /></svg>
      </span>
      <input
        ref={input}
        type="file"
        name="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = "";
          if (f) void upload(f);
        }}
      />
    </div>
  );
}
