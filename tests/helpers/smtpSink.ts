// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, decoded enough
// for tests to read codes and links: headers (RFC 2047 words), multipart parts, base64 / QP bodies.
import { SMTPServer } from "smtp-server";

export interface SunkMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  raw: string;
}

export interface SmtpSink {
  port: number;
  messages: SunkMail[];
  /** credentials the sink accepts; AUTH with others fails with 535 */
  user: string;
  pass: string;
  /** the next message to `to` (already received or arriving within `ms`) */
  waitFor(to: string, ms?: number): Promise<SunkMail>;
  clear(): void;
  close(): Promise<void>;
}

// Adjacent encoded words are joined before decoding: a UTF-8 character may straddle two of them.
function decodeWords(v: string): string {
  return v.replace(/(?:=\?[\w-]+\?[BbQq]\?[^?]*\?=\s*)+/g, (run) => {
    const bytes = [...run.matchAll(/=\?[\w-]+\?([BbQq])\?([^?]*)\?=/g)].map(([, enc, data]) =>
      /b/i.test(enc!) ? Buffer.from(data!, "base64") : qp(data!.replace(/_/g, " ")));
    return new TextDecoder().decode(Buffer.concat(bytes)) + (/\s+$/.exec(run)?.[0] ?? "");
  });
}

function qp(s: string): Buffer {
  const cleaned = s.replace(/=\r?\n/g, "");
  const out: number[] = [];
  for (let i = 0; i < cleaned.length; i++) {
    if (cleaned[i] === "=" && /^[0-9A-F]{2}$/i.test(cleaned.slice(i + 1, i + 3))) {
      out.push(parseInt(cleaned.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(...Buffer.from(cleaned[i]!));
  }
  return Buffer.from(out);
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const cte = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (cte === "base64") return new TextDecoder().decode(Buffer.from(body.replace(/\s+/g, ""), "base64"));
  if (cte === "quoted-printable") return new TextDecoder().decode(qp(body));
  return body;
}

function walk(raw: string, into: { text: string; html: string }) {
  const { headers, body } = splitHead(raw);
  const type = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith("--")) break;
      walk(part.replace(/^\r?\n/, ""), into);
    }
  } else if (/^text\/html/i.test(type)) into.html ||= decodeBody(headers, body);
  else if (/^text\/plain/i.test(type)) into.text ||= decodeBody(headers, body);
}

export function parseMail(raw: string): Omit<SunkMail, "to"> {
  const { headers } = splitHead(raw);
  const parts = { text: "", html: "" };
  walk(raw, parts);
  return { from: decodeWords(headers.from ?? ""), subject: decodeWords(headers.subject ?? ""), headers, raw, ...parts };
}

/** `starttls: true` offers STARTTLS with smtp-server's built-in self-signed certificate. */
export async function startSmtpSink(opts: { user?: string; pass?: string; starttls?: boolean } = {}): Promise<SmtpSink> {
  const user = opts.user ?? "noreply@wenku.test";
  const pass = opts.pass ?? "sink-pass";
  const messages: SunkMail[] = [];
  const waiters: { to: string; resolve: (m: SunkMail) => void }[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback by default: without STARTTLS on offer the client stays in clear text.
    disabledCommands: opts.starttls ? [] : ["STARTTLS"],
    authOptional: false,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user: auth.username });
      cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (d: Buffer) => chunks.push(d));
      stream.on("end", () => {
        const mail: SunkMail = { ...parseMail(Buffer.concat(chunks).toString("utf8")), to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) };
        messages.push(mail);
        // One waiting reader per recipient gets the message, first come first served.
        for (const addr of mail.to) {
          const i = waiters.findIndex((w) => w.to === addr);
          if (i >= 0) waiters.splice(i, 1)[0]!.resolve(mail);
        }
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  // Each waitFor consumes one message per address, in arrival order.
  const consumed = new Map<string, number>();
  return {
    port, messages, user, pass,
    waitFor(to, ms = 10_000) {
      const addr = to.toLowerCase();
      const seen = consumed.get(addr) ?? 0;
      const mine = messages.filter((m) => m.to.includes(addr));
      consumed.set(addr, seen + 1);
      if (mine.length > seen) return Promise.resolve(mine[seen]!);
      return new Promise((resolve, reject) => {
        const w = { to: addr, resolve: (m: SunkMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`no mail to ${addr} within ${ms} ms`));
        }, ms);
        waiters.push(w);
      });
    },
    clear() {
      messages.length = 0;
      consumed.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
