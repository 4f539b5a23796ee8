import { closeSync, copyFileSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { badRequest } from "#src/lib/errors.ts";

// Every upload (documents, avatars, admin images) goes through here: the multipart body is parsed
// as it arrives and the file part is written straight to a temp file, counted and hashed on the
// way. Nothing holds a whole file in memory, and a body over the limit is cut off at the limit.

export interface SpooledFile {
  /** the temp file holding exactly the part's bytes */
  path: string;
  /** the part's filename as sent (not yet sanitized) */
  name: string;
  size: number;
  md5: string;
  sha256: string;
  /** removes the temp file (no-op once it was moved away) */
  cleanup(): void;
}

export interface SpoolOptions {
  /** folder for temp files (created when missing) */
  dir: string;
  /** most bytes the file part may have */
  limit: number;
  tooLarge: () => Error;
  /** form field holding the file (default "file") */
  field?: string;
  /** sees the part's filename before any of its bytes are stored; throw to refuse early */
  onFile?: (name: string) => void;
}

/** Everything in a body besides the file (boundaries, part headers, small fields). */
const OVERHEAD = 64 * 1024;
const MAX_HEADER = 16 * 1024;
const CRLF2 = Buffer.from("\r\n\r\n");
const malformed = () => badRequest("上传内容格式不正确，请重新选择文件");

function boundaryOf(contentType: string): string | null {
  const m = /boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2])! : null;
}

function partInfo(head: string): { name: string | null; filename: string | null } {
  const disp = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? "";
  const param = (key: string) => new RegExp(`;\\s*${key}="([^"]*)"`, "i").exec(disp)?.[1] ?? new RegExp(`;\\s*${key}=([^;\\s"]+)`, "i").exec(disp)?.[1] ?? null;
  let filename = param("filename");
  const star = /;\s*filename\*=(?:UTF-8|utf-8)''([^;\s]+)/.exec(disp)?.[1];
  if (star) {
    try {
      filename = decodeURIComponent(star);
    } catch {}
  }
  return { name: param("name"), filename };
}

/** A fresh temp path under `dir`. */
export function tempPath(dir: string, suffix = ".part"): string {
  mkdirSync(dir, { recursive: true });
  return join(dir, `${process.pid}-${crypto.randomUUID()}${suffix}`);
}

/** Moves a temp file into place (rename; copy + remove across file systems). */
export function moveInto(tmp: string, dest: string) {
  try {
    renameSync(tmp, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    const staging = `${dest}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      copyFileSync(tmp, staging);
      renameSync(staging, dest);
    } finally {
      rmSync(staging, { force: true });
      rmSync(tmp, { force: true });
    }
  }
}

/**
 * Streams the first file part named `field` of a multipart request into a temp file. Answers null
 * when the body has no such file part. Throws `tooLarge()` as soon as the part passes `limit` (the
 * rest of the body is not read), a 400 for a malformed body; never leaves a temp file behind on error.
 */
export async function spoolMultipartFile(req: Request, opts: SpoolOptions): Promise<SpooledFile | null> {
  const boundary = boundaryOf(req.headers.get("content-type") ?? "");
  if (!boundary) throw malformed();
  if (!req.body) return null;
  const field = opts.field ?? "file";
  const delim = Buffer.from(`\r\n--${boundary}`);
  const keep = delim.length - 1;
  const reader = req.body.getReader();
  // The body starts with "--boundary"; a leading CRLF lets one delimiter pattern match every boundary.
  let buf: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "after" | "headers" | "body" | "done" = "preamble";
  let total = 0;
  let fd = -1;
  let path = "";
  let name = "";
  let size = 0;
  let found = false;
  let inFile = false;
  const md5 = new Bun.CryptoHasher("md5");
  const sha = new Bun.CryptoHasher("sha256");

  const emit = (data: Buffer) => {
    if (!inFile || !data.length) return;
    size += data.length;
    if (size > opts.limit) throw opts.tooLarge();
    md5.update(data);
    sha.update(data);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
  };

  try {
    for (;;) {
      // Work through what is buffered; read more only when a step needs it.
      let progressed = true;
      while (progressed && state !== "done") {
        progressed = false;
        if (state === "preamble" || state === "body") {
          const at = buf.indexOf(delim);
          if (at < 0) {
            if (buf.length > keep) {
              if (state === "body") emit(buf.subarray(0, buf.length - keep));
              buf = Buffer.from(buf.subarray(buf.length - keep));
            }
            break;
          }
          if (state === "body") {
            emit(buf.subarray(0, at));
            if (inFile) {
              closeSync(fd);
              fd = -1;
              inFile = false;
              found = true;
            }
          }
          buf = buf.subarray(at + delim.length);
          state = "after";
          progressed = true;
        } else if (state === "after") {
          if (buf.length < 2) break;
          if (buf[0] === 0x2d && buf[1] === 0x2d) state = "done";
          else {
            // Transport padding (spaces, tabs) may follow the boundary before its CRLF.
            const eol = buf.indexOf("\r\n");
            if (eol < 0) {
              if (buf.length > 256) throw malformed();
              break;
            }
            buf = buf.subarray(eol + 2);
            state = "headers";
          }
          progressed = true;
        } else if (state === "headers") {
          const end = buf.indexOf(CRLF2);
          // A part without headers starts straight with its blank line.
          const empty = buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a;
          if (end < 0 && !empty) {
            if (buf.length > MAX_HEADER) throw malformed();
            break;
          }
          const headEnd = empty ? 0 : end;
          const info = partInfo(buf.subarray(0, headEnd).toString("utf8"));
          buf = buf.subarray(headEnd + (empty ? 2 : 4));
          if (!found && !inFile && info.name === field && info.filename !== null) {
            name = info.filename;
            opts.onFile?.(name);
            path = tempPath(opts.dir);
            fd = openSync(path, "wx", 0o600);
            inFile = true;
          }
          state = "body";
          progressed = true;
        }
      }
      if (state === "done" || (found && state !== "body")) break;
      const { value, done } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > opts.limit + OVERHEAD) throw opts.tooLarge();
      buf = buf.length ? Buffer.concat([buf, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
    if (inFile) throw malformed(); // the body ended inside the file part
    if (!found) {
      if (state !== "done" && state !== "after") throw malformed();
      return null;
    }
    const file = path;
    return {
      path: file, name, size, md5: md5.digest("hex"), sha256: sha.digest("hex"),
      cleanup: () => rmSync(file, { force: true }),
    };
  } catch (err) {
    if (fd >= 0) closeSync(fd);
    if (path) rmSync(path, { force: true });
    throw err;
  } finally {
    // Whatever of the body is left (a refused or oversized upload) is not read.
    reader.cancel().catch(() => {});
  }
}
