import { useState } from "react";
import { useHydrated } from "../admin/useHydrated.ts";
import { api } from "../api.ts";
import { Modal } from "../admin/AdminKit.tsx";
import { flashThenGo, toast } from "../toast.ts";

/** The read-only topic view's one action: delete the whole topic, then back to the list. */
export default function AdminChatTopicActions({ id, title }: { id: number; title: string }) {
  const ready = useHydrated();
  const [asking, setAsking] = useState(false);
  const remove = async () => {
    const r = await api("DELETE", "/chat/topic/all", { body: { id: [id] } });
    setAsking(false);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    flashThenGo("会话已删除", "/admin/ai/chat");
  };
  return (
    <>
      <a className="adm-btn" href="/admin/ai/chat">返回对话记录</a>
      <button type="button" className="adm-btn adm-btn-danger" disabled={!ready} onClick={() => setAsking(true)}>删除整个会话</button>
      <Modal open={asking} title="确认删除" width={420} onClose={() => setAsking(false)}>
        <p>{`确定删除会话「${title || "未命名会话"}」及其全部对话吗？删除后不可恢复。`}</p>
        <div className="adm-form-actions"><button type="button" className="adm-btn" onClick={() => setAsking(false)}>取消</button><button type="button" className="adm-btn adm-btn-danger" onClick={() => void remove()}>确定删除</button></div>
      </Modal>
    </>
  );
}
