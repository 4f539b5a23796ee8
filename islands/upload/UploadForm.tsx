import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { editable, UploadItem, type CategoryOpt, type Item, type Lang } from "./UploadItem.tsx";
import { hashFile, uploadDocument } from "./UploadTransfer.ts";

export interface UploadFormProps {
  categories: CategoryOpt[];
  languages: Lang[];
  defaultLanguage: string;
  /** allowed extensions without dots */
  exts: string[];
  maxMb: number;
  creditName: string;
  needsReview: boolean;
}

const MAX_FILES = 50;
let seq = 0;
const extOf = (name: string) => /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase() ?? "";

/** The /upload page: pick or drop several files, describe each, then hash → (skip or upload) → create. */
export default function UploadForm(p: UploadFormProps) {
  const [items, setItems] = useState<Item[]>([]);
  const [running, setRunning] = useState(false);
  const [ready, setReady] = useState(false);
  const [over, setOver] = useState(false);
  useEffect(() => setReady(true), []);

  const patch = (key: string, change: Partial<Item>) => setItems((list) => list.map((it) => (it.key === key ? { ...it, ...change } : it)));

  const add = (files: FileList | File[]) => {
    const last = items.at(-1);
    const fresh = [...files].slice(0, Math.max(0, MAX_FILES - items.length)).map((file): Item => {
      const ext = extOf(file.name);
      const problem = !p.exts.includes(ext) ? `不支持 .${ext} 格式`
        : file.size === 0 ? "文件是空的（0 字节）" : file.size > p.maxMb * 1024 * 1024 ? `文件超过 ${p.maxMb} MB` : "";
      return {
        key: `f${++seq}`, file, title: file.name.replace(/\.[^.]*$/, "").slice(0, 255), category_id: last?.category_id ?? "", price: last?.price ?? 0,
        language: last?.language ?? p.defaultLanguage, description: "", keywords: "", more: false,
        phase: problem ? "invalid" : "ready", progress: 0, message: problem, instant: false,
      };
    });
    if (files.length > fresh.length) toast(`一次最多上传 ${MAX_FILES} 个文件`, "error");
    setItems((list) => [...list, ...fresh]);
  };

  const fail = (key: string, message: string) => patch(key, { phase: "error", message });

  async function send(it: Item) {
    patch(it.key, { phase: "hashing", progress: 0, message: "", instant: false });
    let hash: string;
    try {
      hash = await hashFile(it.file, (pct) => patch(it.key, { progress: pct }));
    } catch (err) {
      return fail(it.key, (err as Error).message);
    }
    const known = await api<{ exists: boolean }>("GET", "/upload/document/exists", { query: { hash } });
    if (!known.ok) return fail(it.key, known.message);
    let source: { attachment_id: number } | { hash: string; name: string };
    if (known.data?.exists) {
      patch(it.key, { instant: true, progress: 100 });
      source = { hash, name: it.file.name };
    } else {
      patch(it.key, { phase: "uploading", progress: 0 });
      const up = await uploadDocument(it.file, (pct) => patch(it.key, { progress: pct }));
      if (!up.ok || !up.data) return fail(it.key, up.message || "上传失败");
      source = { attachment_id: up.data.id };
    }
    patch(it.key, { phase: "creating", progress: 100 });
    const doc = { title: it.title.trim(), category_id: it.category_id, price: it.price === "" ? 0 : it.price, language: it.language, description: it.description.trim(), keywords: it.keywords.trim(), ...source };
    const r = await api("POST", "/document", { body: { document: [doc] } });
    if (!r.ok) return fail(it.key, r.message || "创建文档失败");
    patch(it.key, { phase: "done", message: p.needsReview ? "上传成功，等待管理员审核" : "上传成功，正在转换" });
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const todo = items.filter((it) => editable(it.phase));
    if (!todo.length) return toast(items.length ? "没有需要上传的文件" : "请先选择文件", "error");
    // Title and price are checked by the server per file; a retry after fixing them is an instant upload.
    const uncategorised = todo.find((it) => it.category_id === "");
    if (uncategorised) return toast(`请选择「${uncategorised.file.name}」的分类`, "error");
    setRunning(true);
    // One file at a time: each progress bar then shows the line's full speed.
    for (const it of todo) await send(it);
    setRunning(false);
  };

  const done = items.filter((it) => it.phase === "done").length;
  const failed = items.filter((it) => it.phase === "error").length;
  return (
    <form className="up-form" onSubmit={submit} noValidate>
      <label
        className={over ? "up-drop over" : "up-drop"}
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => (e.preventDefault(), setOver(false), ready && !running && add(e.dataTransfer.files))}
      >
        <input type="file" multiple hidden disabled={!ready || running} accept={p.exts.map((x) => `.${x}`).join(",")} onChange={(e) => (e.target.files && add(e.target.files), (e.target.value = ""))} />
        <strong>点击选择文件，或把文件拖到这里</strong>
        <span className="muted">{`支持 ${p.exts.join("、")}；单个文件不超过 ${p.maxMb} MB，一次最多 ${MAX_FILES} 个`}</span>
      </label>
      {items.length ? (
        <ul className="up-list">
          {items.map((it) => (
            <UploadItem key={it.key} item={it} categories={p.categories} languages={p.languages} creditName={p.creditName} locked={running}
              onChange={(c) => patch(it.key, c)} onRemove={() => setItems((list) => list.filter((x) => x.key !== it.key))} />
          ))}
        </ul>
      ) : null}
      <div className="up-actions">
        <button className="btn btn-primary" type="submit" disabled={!ready || running || !items.some((it) => editable(it.phase))}>{running ? "上传中…" : "开始上传"}</button>
        {done || failed ? <span className="up-summary" role="status">{`成功 ${done} 个${failed ? `，失败 ${failed} 个` : ""}`}</span> : null}
        {done ? <a className="btn" href="/me/document">查看我的文档</a> : null}
      </div>
    </form>
  );
}
