// One comment and, for a top comment, its replies (no default export: part of the Comments island).
import { useState } from "react";
import type { CommentItem as Item } from "#src/features/comments/list.ts";
import { linkPieces } from "#src/features/comments/text.ts";
import { formatDateTime, timeAgo } from "#src/lib/format.ts";
import { Avatar } from "../site/UserMenu.tsx";
import { api } from "../api.ts";
import { toast } from "../toast.ts";
import { CommentForm, type FormContext } from "./CommentForm.tsx";

export type { Item };

function Text({ text, allowLink }: { text: string; allowLink: boolean }) {
  return (
    <p className="cmt-text">
      {linkPieces(text, allowLink).map((p, i) => (p.href ? <a key={i} href={p.href} target="_blank" rel="nofollow ugc noopener noreferrer">{p.text}</a> : <span key={i}>{p.text}</span>))}
    </p>
  );
}

// A reply names the comment it answers; the server hangs it under that comment's thread.
export interface ItemProps {
  item: Item;
  ctx: FormContext;
  onReplied: (reply: Item) => void;
  onDeleted: (item: Item) => void;
}

function CommentBody({ item, ctx, onReplied, onDeleted }: ItemProps) {
  const [replying, setReplying] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const mine = ctx.viewer?.id === item.user_id;
  const canDelete = mine || !!ctx.viewer?.moderator;
  const remove = async () => {
    const r = await api("DELETE", "/comment", { body: { id: item.id } });
    setConfirming(false);
    if (!r.ok) return toast(r.message || "删除失败", "error");
    toast("评论已删除", "success");
    onDeleted(item);
  };
  return (
    <div className="cmt-body">
      <div className="cmt-meta">
        <a className="cmt-user" href={`/user/${item.user_id}`}>{item.username || "已注销用户"}</a>
        {item.parent_id && item.reply_username ? <span className="cmt-reply-to">回复 <a href={`/user/${item.reply_user_id}`}>@{item.reply_username}</a></span> : null}
        {item.status !== 0 ? <span className="cmt-badge">{item.status === 2 ? "审核中，仅自己可见" : item.status_label}</span> : null}
      </div>
      <Text text={item.content} allowLink={ctx.settings.allowLink} />
      <div className="cmt-actions">
        <time className="muted" dateTime={new Date(item.created_at).toISOString()} title={formatDateTime(item.created_at)} suppressHydrationWarning>{timeAgo(item.created_at)}</time>
        {ctx.settings.enable && item.status === 0 ? (
          ctx.viewer ? <button type="button" className="cmt-act" disabled={!ctx.ready} aria-expanded={replying} onClick={() => setReplying(!replying)}>{replying ? "取消回复" : "回复"}</button>
            : <a className="cmt-act" href={ctx.loginHref}>回复</a>
        ) : null}
        {canDelete && !confirming ? <button type="button" className="cmt-act" disabled={!ctx.ready} onClick={() => setConfirming(true)}>删除</button> : null}
        {confirming ? (
          <span className="cmt-confirm" role="group" aria-label="确认删除">
            <span>{item.parent_id ? "确定删除这条回复？" : "删除评论会一并删除它的回复，确定？"}</span>
            <button type="button" className="cmt-act cmt-danger" onClick={() => void remove()}>确定</button>
            <button type="button" className="cmt-act" onClick={() => setConfirming(false)}>取消</button>
          </span>
        ) : null}
      </div>
      {replying ? (
        <CommentForm ctx={ctx} parentId={item.id} placeholder={`回复 @${item.username}`} autoFocus compact
          onPosted={(reply) => (setReplying(false), onReplied(reply))} onCancel={() => setReplying(false)} />
      ) : null}
    </div>
  );
}

/** A top comment with its first replies; 查看全部回复 loads the rest of the thread. */
export function CommentThread({ item, ctx, onDeleted }: { item: Item; ctx: FormContext; onDeleted: (item: Item) => void }) {
  const [replies, setReplies] = useState<Item[]>(item.replies ?? []);
  const [total, setTotal] = useState(item.reply_total ?? 0);
  const [busy, setBusy] = useState(false);
  const more = async () => {
    setBusy(true);
    const r = await api<{ total: number; comment: Item[] }>("GET", "/comment/list", { query: { ...ctx.target, parent_id: item.id, size: 100 } });
    setBusy(false);
    if (!r.ok || !r.data) return toast(r.message || "加载回复失败", "error");
    setReplies(r.data.comment);
    setTotal(r.data.total);
  };
  const added = (reply: Item) => (setReplies((rs) => [...rs, reply]), setTotal((n) => n + 1));
  const removed = (reply: Item) => (setReplies((rs) => rs.filter((r) => r.id !== reply.id)), setTotal((n) => Math.max(0, n - 1)), onDeleted(reply));
  return (
    <li className="cmt-item">
      <Avatar src={item.avatar} name={item.username || "?"} size={36} />
      <div className="cmt-main">
        <CommentBody item={item} ctx={ctx} onReplied={added} onDeleted={(c) => onDeleted({ ...c, reply_total: total })} />
        {replies.length ? (
          <ul className="cmt-replies">
            {replies.map((r) => (
              <li key={r.id} className="cmt-item cmt-reply">
                <Avatar src={r.avatar} name={r.username || "?"} size={28} />
                <div className="cmt-main"><CommentBody item={r} ctx={ctx} onReplied={added} onDeleted={removed} /></div>
              </li>
            ))}
          </ul>
        ) : null}
        {total > replies.length ? <button type="button" className="cmt-more-replies" disabled={!ctx.ready || busy} onClick={() => void more()}>{`查看全部 ${total} 条回复`}</button> : null}
      </div>
    </li>
  );
}
