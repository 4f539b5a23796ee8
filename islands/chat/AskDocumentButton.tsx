// "AI 问这篇文档" on the reader: a topic scoped to this document, then its conversation page.
// Before hydration it is a plain link (login, or a new dialog scoped to the document). Kept tiny
// for the public page budget: no state, no markdown or chat code; the icon is CSS.
import type { MouseEvent } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

export interface AskDocumentButtonProps { documentId: number; uuid: string; loggedIn: boolean; path: string }

export default function AskDocumentButton({ documentId, uuid, loggedIn, path }: AskDocumentButtonProps) {
  const ask = async (e: MouseEvent<HTMLAnchorElement>) => {
    if (!loggedIn || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const a = e.currentTarget;
    if (a.ariaBusy) return;
    a.ariaBusy = "true";
    const r = await api<{ uuid: string }>("POST", "/chat/topic", { body: { category: 1, document_id: [documentId] } });
    if (r.ok && r.data) return void (location.href = `/chat/${r.data.uuid}`);
    a.ariaBusy = null;
    toast(r.message || "创建会话失败", "error");
  };
  return (
    <a className="btn doc-ask-ai" href={loggedIn ? `/chat/dialog?document=${uuid}` : `/login?redirect=${encodeURIComponent(path)}`} onClick={(e) => void ask(e)}>
      AI 问这篇文档
    </a>
  );
}
