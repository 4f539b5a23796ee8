// The markdown area of ArticleEditor: toolbar, text, image upload (button and paste) and the live
// preview rendered by the server's own article renderer (no default export: part of that island).
import { useEffect, useRef, useState } from "react";
import { api } from "../api.ts";
import { uploadArticleImage } from "./uploadImage.ts";

type Wrap = [label: string, title: string, before: string, after: string, placeholder: string];
const TOOLS: Wrap[] = [
  ["H", "标题", "\n## ", "\n", "小标题"],
  ["B", "粗体", "**", "**", "粗体文字"],
  ["I", "斜体", "*", "*", "斜体文字"],
  ["链接", "插入链接", "[", "](https://)", "链接文字"],
  ["代码", "代码块", "\n```js\n", "\n```\n", "console.log(\"hello\");"],
  ["公式", "行内公式（$…$），独占一行用 $$…$$", "$", "$", "E=mc^2"],
  ["引用", "引用", "\n> ", "\n", "引用内容"],
  ["列表", "无序列表", "\n- ", "\n", "列表项"],
];

export interface EditorBodyProps {
  value: string;
  onChange: (v: string) => void;
  maxLength: number;
  disabled: boolean;
  mode: "write" | "preview";
}

export function EditorBody({ value, onChange, maxLength, disabled, mode }: EditorBodyProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const [html, setHtml] = useState("");
  const [uploading, setUploading] = useState(false);

  // Debounced; an older answer arriving after a newer request is dropped.
  useEffect(() => {
    let live = true;
    const t = setTimeout(async () => {
      if (!value.trim()) return setHtml("");
      const r = await api<{ html: string }>("POST", "/article/preview", { body: { content: value } });
      if (live && r.ok && r.data) setHtml(r.data.html);
    }, 400);
    return () => ((live = false), clearTimeout(t));
  }, [value]);

  const insert = (before: string, after = "", placeholder = "") => {
    const el = area.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const picked = value.slice(start, end) || placeholder;
    onChange(value.slice(0, start) + before + picked + after + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + before.length, start + before.length + picked.length);
    });
  };

  const upload = async (files: File[]) => {
    setUploading(true);
    for (const f of files) {
      const path = await uploadArticleImage(f);
      if (path) insert(`\n![${f.name.replace(/\.[^.]*$/, "").replace(/[[\]]/g, "")}](${path})\n`);
    }
    setUploading(false);
    if (file.current) file.current.value = "";
  };

  const onPaste = (e: React.ClipboardEvent) => {
    const images = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
    if (!images.length) return;
    e.preventDefault();
    void upload(images);
  };

  const n = [...value].length;
  return (
    <div className={`art-editor-body mode-${mode}`}>
      <div className="art-toolbar" role="toolbar" aria-label="格式">
        {TOOLS.map(([label, title, before, after, ph]) => (
          <button key={label} type="button" className="art-tool" title={title} aria-label={title} disabled={disabled || mode === "preview"} onClick={() => insert(before, after, ph)}>{label}</button>
        ))}
        <button type="button" className="art-tool" title="上传图片（也可以直接粘贴图片）" disabled={disabled || uploading || mode === "preview"} onClick={() => file.current?.click()}>
          {uploading ? "上传中…" : "图片"}
        </button>
        <input ref={file} type="file" hidden accept="image/png,image/jpeg,image/gif,image/webp" multiple onChange={(e) => void upload([...(e.target.files ?? [])])} />
        <span className={n > maxLength ? "art-count over" : "art-count"}>{`${n} / ${maxLength}`}</span>
      </div>
      <div className="art-panes">
        <label className="art-pane art-write">
          <span className="art-sr-only">正文（Markdown）</span>
          <textarea
            ref={area} name="content" value={value} disabled={disabled} spellCheck={false}
            placeholder={"用 Markdown 写正文：# 标题、**粗体**、`代码`、$公式$，可直接粘贴图片"}
            onChange={(e) => onChange(e.target.value)} onPaste={onPaste}
          />
        </label>
        <section className="art-pane art-preview" aria-label="预览">
          {html ? <div className="md-body" dangerouslySetInnerHTML={{ __html: html }} /> : <p className="muted">预览会显示在这里。</p>}
        </section>
      </div>
    </div>
  );
}
