// Shared set-up for the conversion tests: a temp database and document folder, documents created
// the way the upload creates them (original stored under its MD5), a worker that runs the real
// conversion job, and hostile files built here (no binary fixtures besides assets/samples).
import { and, eq, inArray } from "drizzle-orm";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createDeflateRaw } from "node:zlib";
import { getDb, getSqlite } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { jobs } from "#db/schema/jobs.ts";
import { user } from "#db/schema/users.ts";
import { CONVERT_JOB, enqueueConversion } from "#src/features/convert/enqueue.ts";
import { tmpRoot } from "#src/features/convert/workdir.ts";
import { originalPath, setDocumentsRoot } from "#src/features/documents/paths.ts";
import { invalidateSettings } from "#src/features/settings/service.ts";
import { startWorker } from "#src/jobs/worker.ts";
import "#src/features/convert/job.ts";
import { useTempDatabase } from "../helpers/testDb.ts";

export const root = resolve(import.meta.dir, "../..");
export const samples = join(root, "assets/samples");

export function setupConvertTests() {
  const db = useTempDatabase();
  setDocumentsRoot(join(db.dir, "documents"));
  const owner = getDb().insert(user).values({ username: `u${Date.now()}`, password: "x" }).returning().get();
  return {
    ...db,
    owner,
    cleanup() {
      setDocumentsRoot(null);
      db.cleanup();
    },
  };
}

export const md5 = (bytes: Uint8Array) => new Bun.CryptoHasher("md5").update(bytes).digest("hex");

/** Stores `bytes` as an upload would and creates the document row (status 0 unless given). */
export function addDocument(ownerId: number, bytes: Uint8Array, ext: string, extra: Partial<typeof document.$inferInsert> = {}) {
  const hash = md5(bytes);
  const file = originalPath(hash, ext);
  mkdirSync(resolve(file, ".."), { recursive: true });
  if (!existsSync(file)) writeFileSync(file, bytes);
  return getDb().insert(document).values({
    uuid: crypto.randomUUID(), title: `测试文档 ${ext}`, user_id: ownerId, hash, ext, size: bytes.length, status: 0, ...extra,
  }).returning().get();
}

export const docRow = (id: number) => getDb().select().from(document).where(eq(document.id, id)).get()!;
export const pageRows = (id: number) => getSqlite().query("SELECT page, text FROM document_page WHERE document_id = ? ORDER BY page").all(id) as { page: number; text: string }[];

export function setConverter(values: Record<string, string | number | boolean>) {
  const q = getSqlite().query("INSERT INTO config (category, name, value) VALUES ('converter', ?, ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value");
  for (const [k, v] of Object.entries(values)) q.run(k, String(v));
  invalidateSettings();
}

/** Enqueues the documents' conversions and runs a worker in this process until they are finished. */
export async function convert(ids: number[], opts: { fresh?: boolean; timeoutMs?: number } = {}) {
  const jobIds = ids.map((id) => enqueueConversion(id, { fresh: opts.fresh }).id);
  const worker = startWorker({ concurrency: 4, pollMs: 20 });
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  try {
    while (getDb().select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.id, jobIds), inArray(jobs.status, ["queued", "running"]))).all().length) {
      if (Date.now() > deadline) throw new Error("conversion did not finish in time");
      await Bun.sleep(25);
    }
  } finally {
    await worker.stop();
  }
  return getDb().select().from(jobs).where(inArray(jobs.id, jobIds)).all();
}

/** Runs a worker until no conversion is queued or running. */
export async function drainConversions(timeoutMs = 120_000) {
  const worker = startWorker({ concurrency: 4, pollMs: 20 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (pendingConvertJobs().length) {
      if (Date.now() > deadline) throw new Error("conversions did not finish in time");
      await Bun.sleep(25);
    }
  } finally {
    await worker.stop();
  }
}

export const pendingConvertJobs = () => getDb().select().from(jobs).where(and(eq(jobs.kind, CONVERT_JOB), inArray(jobs.status, ["queued", "running"]))).all();

/** Work dirs left under DATA_DIR/tmp (must be none after every conversion). */
export const leftovers = () => (existsSync(tmpRoot()) ? readdirSync(tmpRoot()) : []);

/** Processes whose environment marks them as started by a conversion under `dataDir`. */
export function markedProcesses(dataDir: string): number[] {
  const out = Bun.spawnSync(["sh", "-c", `grep -l -s -a "WENKU_CONVERT_DIR=${dataDir}" /proc/[0-9]*/environ || true`]);
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) => Number(l.split("/")[2]));
}

/** Runs a tool to derive a test file from a sample (e.g. docx → doc); returns the output path. */
export async function derive(dir: string, cmd: string[]) {
  const p = Bun.spawn(cmd, {
    cwd: dir, stdout: "pipe", stderr: "pipe",
    env: { ...process.env, HOME: dir, QT_QPA_PLATFORM: "offscreen", QTWEBENGINE_DISABLE_SANDBOX: "1", QTWEBENGINE_CHROMIUM_FLAGS: "--no-sandbox" },
  });
  const [, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed: ${err}`);
}

export async function soffice(dir: string, src: string, to: string) {
  const name = src.split("/").pop()!.replace(/\.[^.]+$/, "");
  copyFileSync(src, join(dir, `${name}.${src.split(".").pop()}`));
  await derive(dir, ["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${dir}/lo`, "--convert-to", to, "--outdir", join(dir, "out"), `${name}.${src.split(".").pop()}`]);
  return join(dir, "out", `${name}.${to.split(":")[0]}`);
}

// ---- hostile files ----

/** A valid PDF with `n` pages that all share one content stream (1.5 MB for 10,000 pages). */
export function manyPagesPdf(n: number): Uint8Array {
  const parts: string[] = [];
  const offsets: number[] = [];
  let len = 0;
  const push = (s: string) => (parts.push(s), (len += Buffer.byteLength(s)));
  const obj = (id: number, body: string) => ((offsets[id] = len), push(`${id} 0 obj\n${body}\nendobj\n`));
  push("%PDF-1.4\n");
  const content = "BT /F1 24 Tf 72 720 Td (Page) Tj ET";
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  obj(2, `<< /Type /Pages /Count ${n} /Kids [${Array.from({ length: n }, (_, i) => `${i + 5} 0 R`).join(" ")}] >>`);
  obj(3, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  obj(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (let i = 0; i < n; i++) obj(i + 5, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>");
  const xref = len;
  push(`xref\n0 ${n + 5}\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`);
  push(`trailer\n<< /Size ${n + 5} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new TextEncoder().encode(parts.join(""));
}

type Stream = { head?: Uint8Array; chunk: Uint8Array; repeat: number; tail?: Uint8Array };
interface ZipEntry { name: string; data: Uint8Array | Stream }

function* pieces(d: Uint8Array | Stream): Generator<Uint8Array> {
  if (d instanceof Uint8Array) {
    yield d;
    return;
  }
  if (d.head) yield d.head;
  for (let i = 0; i < d.repeat; i++) yield d.chunk;
  if (d.tail) yield d.tail;
}

/** A zip; an entry given as {head, chunk, repeat, tail} is deflated as a stream, so a huge entry never sits in memory. */
export async function makeZip(entries: ZipEntry[]): Promise<Uint8Array> {
  const out: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    let crc = 0;
    let size = 0;
    const compressed: Buffer[] = [];
    const deflate = createDeflateRaw({ level: 9 });
    deflate.on("data", (c: Buffer) => compressed.push(c));
    const done = new Promise((r) => deflate.on("end", r));
    for (const part of pieces(e.data)) {
      crc = Bun.hash.crc32(part, crc);
      size += part.length;
      if (!deflate.write(part)) await new Promise((r) => deflate.once("drain", r));
    }
    deflate.end();
    await done;
    const data = Buffer.concat(compressed);
    const header = (sig: number, central: boolean) => {
      const b = Buffer.alloc(central ? 46 : 30);
      b.writeUInt32LE(sig, 0);
      const p = central ? 6 : 4;
      if (central) b.writeUInt16LE(20, 4);
      b.writeUInt16LE(20, p); b.writeUInt16LE(0x0800, p + 2); b.writeUInt16LE(8, p + 4);
      b.writeUInt32LE(0, p + 6); b.writeUInt32LE(crc >>> 0, p + 10); b.writeUInt32LE(data.length, p + 14); b.writeUInt32LE(size, p + 18);
      b.writeUInt16LE(name.length, p + 22);
      if (central) b.writeUInt32LE(offset, 42);
      return b;
    };
    central.push(Buffer.concat([header(0x02014b50, true), name]));
    const local = Buffer.concat([header(0x04034b50, false), name, data]);
    out.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...out, cd, end]));
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** A DOCX whose document.xml is `repeat` × 1,000 copies of one paragraph: tiny on disk, huge inflated. */
export function bombDocx(repeat: number) {
  const enc = new TextEncoder();
  return makeZip([
    { name: "[Content_Types].xml", data: enc.encode(CONTENT_TYPES) },
    { name: "_rels/.rels", data: enc.encode(RELS) },
    {
      name: "word/document.xml",
      data: {
        head: enc.encode(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`),
        chunk: enc.encode(`<w:p><w:r><w:t>压缩炸弹测试段落，重复很多次。</w:t></w:r></w:p>`.repeat(1000)),
        repeat,
        tail: enc.encode(`</w:body></w:document>`),
      },
    },
  ]);
}
