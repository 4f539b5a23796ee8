// The report dialog of documents (DocumentActions) and articles (ArticleActions). Built as its own
// entry and loaded by URL on the first click of 举报, so pages carry its code only when someone reports.
import { useEffect, useRef, useState } from "react";
import { REPORT_REASONS } from "#src/features/reader/reasons.ts";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface ReportDialogProps {
  /** what is reported: POST /report takes document_id or article_id */
  target: { document_id: number } | { article_id: number };
  onClose: () => void;
  onDone: () => void;
}

export default function ReportDialog({ target, onClose, onDone }: ReportDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState(0);
  const [remark, setRemark] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason) return setError("请选择举报原因");
    setBusy(true);
    const r = await api("POST", "/report", { body: { ...target, reason, remark } });
    setBusy(false);
    if (!r.ok) {
      // Already reported by this user: the button shows it from now on.
      if (r.status === 409) onDone();
      return toast(r.message || "举报失败", "error");
    }
    toast("举报成功，我们会尽快处理", "success");
    onDone();
  };

  return (
    <dialog ref={ref} className="wk-dialog" aria-labelledby="report-title" onClose={onClose} onCancel={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <h2 id="report-title" className="wk-dialog-title">{"article_id" in target ? "举报文章" : "举报文档"}</h2>
        <fieldset className="report-reasons">
          <legend>举报原因</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r.value} className={reason === r.value ? "report-reason active" : "report-reason"}>
              <input type="radio" name="reason" value={r.value} checked={reason === r.value} onChange={() => (setReason(r.value), setError(""))} />
              <span>{r.label}</span>
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>补充说明（选填）</span>
          <textarea name="remark" rows={3} maxLength={255} value={remark} placeholder="请描述具体问题，便于我们核实" onChange={(e) => setRemark(e.target.value)} />
        </label>
        {error ? <p className="form-error" role="alert">{error}</p> : null}
        <div className="wk-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>取消</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>提交举报</button>
        </div>
      </form>
    </dialog>
  );
}
