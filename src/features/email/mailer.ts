import nodemailer from "nodemailer";
import { getSettings } from "#src/features/settings/service.ts";
import { AppError } from "#src/lib/errors.ts";

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * A failed send. `message` (邮件发送失败：<reason>) is safe to show anyone; `detail` is the SMTP
 * server's own answer, kept for the verify_code row and shown only to administrators.
 */
export class MailError extends AppError {
  constructor(public reason: string, public detail = "") {
    super(503, "mail_failed", `邮件发送失败：${reason}`);
  }
}

export interface MailConfig {
  enable: boolean;
  host: string;
  port: number;
  is_tls: boolean;
  from_name: string;
  username: string;
  password: string;
  duration: number;
}

export function mailConfig(): MailConfig {
  const e = getSettings().email!;
  return {
    enable: !!e.enable,
    host: String(e.host ?? "").trim(),
    port: Number(e.port) || 465,
    is_tls: !!e.is_tls,
    from_name: String(e.from_name ?? "").trim() || String(getSettings().system!.sitename ?? ""),
    username: String(e.username ?? "").trim(),
    password: String(e.password ?? ""),
    duration: Math.max(1, Math.floor(Number(e.duration) || 10)),
  };
}

/** Public flows (codes, find password) refuse to start while the admin has mail switched off. */
export function assertMailEnabled() {
  if (!mailConfig().enable) throw new AppError(503, "mail_disabled", "网站未开启邮件服务，请联系管理员");
}

const SIMPLE_EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

// nodemailer error codes → what an admin can act on, in Chinese.
function reasonOf(err: { code?: string; message?: string; responseCode?: number }, cfg: MailConfig): string {
  const msg = String(err.message ?? "");
  if (err.code === "EAUTH") return "SMTP 认证失败，请检查发件邮箱与密码（授权码）";
  if (/ECONNREFUSED/.test(msg)) return `无法连接邮件服务器 ${cfg.host}:${cfg.port}`;
  if (err.code === "EDNS" || /ENOTFOUND|EAI_AGAIN/.test(msg)) return `无法解析邮件服务器地址 ${cfg.host}`;
  if (err.code === "ETIMEDOUT" || /timeout/i.test(msg)) return "连接邮件服务器超时";
  if (err.code === "ETLS" || /certificate|SSL|TLS|wrong version number/i.test(msg)) return "TLS 加密连接失败，请检查端口与 SSL/TLS 设置";
  if (err.code === "EENVELOPE") return "收件人或发件人地址被邮件服务器拒绝";
  if (err.code === "ECONNECTION" || err.code === "ESOCKET") return "与邮件服务器的连接中断";
  if (err.responseCode) return `邮件服务器拒绝发送（${err.responseCode}）`;
  return "未知错误";
}

/**
 * Sends one message over SMTP with the current `email` settings. A new transport per call, so a
 * saved change applies at once; sends are rare enough that pooling would buy nothing.
 */
export async function send(msg: MailMessage): Promise<void> {
  const cfg = mailConfig();
  if (!cfg.host) throw new MailError("未配置 SMTP 服务器");
  if (!SIMPLE_EMAIL.test(cfg.username)) throw new MailError("发件邮箱（SMTP 用户名）不是有效的邮箱地址");
  const transport = nodemailer.createTransport({
    host: cfg.host,
    port: cfg.port,
    // Implicit TLS when set; otherwise nodemailer upgrades with STARTTLS whenever the server offers it.
    secure: cfg.is_tls,
    auth: cfg.password ? { user: cfg.username, pass: cfg.password } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({ from: { name: cfg.from_name, address: cfg.username }, to: msg.to, subject: msg.subject, html: msg.html, text: msg.text });
  } catch (err) {
    const e = err as { code?: string; message?: string; response?: string; responseCode?: number };
    throw new MailError(reasonOf(e, cfg), String(e.response || e.message || err).slice(0, 300));
  } finally {
    transport.close();
  }
}
