import type { MailMessage } from "./mailer.ts";

// Every interpolated value is escaped: site names and usernames are user-controlled.
const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function layout(sitename: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><body style="margin:0;padding:24px;background:#f5f6f7;font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f2329">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:28px 32px;line-height:1.7;font-size:14px">
<div style="font-size:18px;font-weight:600;margin-bottom:16px">${esc(sitename)}</div>${body}
<p style="margin-top:24px;color:#646a73;font-size:12px">此邮件由系统自动发送，请勿直接回复。</p></div></body></html>`;
}

export const CODE_PURPOSE: Record<number, string> = { 0: "注册账号", 2: "找回密码", 3: "验证邮箱" };

export function codeMail(a: { to: string; sitename: string; code: string; minutes: number; type: number }): MailMessage {
  const purpose = CODE_PURPOSE[a.type] ?? "验证邮箱";
  const text = `您正在${a.sitename}${purpose}，验证码：${a.code}，${a.minutes} 分钟内有效。\n如非本人操作，请忽略本邮件，不要把验证码告诉任何人。`;
  const html = layout(a.sitename, `<p>您好，您正在${purpose}，本次验证码为：</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;color:#0958d9;margin:12px 0">${esc(a.code)}</p>
<p>验证码 ${a.minutes} 分钟内有效。如非本人操作，请忽略本邮件，不要把验证码告诉任何人。</p>`);
  return { to: a.to, subject: `【${a.sitename}】${purpose}验证码`, html, text };
}

export function resetMail(a: { to: string; sitename: string; username: string; link: string; minutes: number }): MailMessage {
  const text = `${a.username}，您好：\n您正在找回${a.sitename}的账号密码，请在 ${a.minutes} 分钟内打开以下链接设置新密码（链接仅可使用一次）：\n${a.link}\n如非本人操作，请忽略本邮件，您的密码不会改变。`;
  const html = layout(a.sitename, `<p>${esc(a.username)}，您好：</p>
<p>您正在找回账号密码，请在 ${a.minutes} 分钟内点击下面的按钮设置新密码（链接仅可使用一次）：</p>
<p style="margin:20px 0"><a href="${esc(a.link)}" style="display:inline-block;padding:10px 24px;background:#0958d9;color:#fff;border-radius:6px;text-decoration:none">重置密码</a></p>
<p style="word-break:break-all;color:#4e5969">如果按钮无法打开，请复制以下链接到浏览器：<br>${esc(a.link)}</p>
<p>如非本人操作，请忽略本邮件，您的密码不会改变。</p>`);
  return { to: a.to, subject: `【${a.sitename}】找回密码`, html, text };
}

export function testMail(a: { to: string; sitename: string; at: string }): MailMessage {
  const text = `这是一封来自${a.sitename}的测试邮件。收到此邮件说明邮件服务配置正确。\n发送时间：${a.at}`;
  const html = layout(a.sitename, `<p>这是一封测试邮件。收到此邮件说明邮件服务配置正确。</p><p style="color:#4e5969">发送时间：${esc(a.at)}</p>`);
  return { to: a.to, subject: `【${a.sitename}】测试邮件`, html, text };
}
