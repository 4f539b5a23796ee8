// Shared set-up of the download tests: documents with a real original file under a temp storage
// root, credits through the ledger, download settings, and reading balances and ledger rows.
import { afterAll, beforeAll } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { creditLog } from "#db/schema/accounts.ts";
import { document, download } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { changeCredits } from "#src/features/credits/ledger.ts";
import { originalPath, setDocumentsRoot } from "#src/features/documents/paths.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { resetAll } from "#src/lib/rateLimit.ts";
import { setupTestApp } from "../helpers/testApp.ts";

export function setupDownloads() {
  const t = setupTestApp();
  let root = "";
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "wk-dl-docs-"));
    setDocumentsRoot(root);
  });
  afterAll(() => {
    setDocumentsRoot(null);
    rmSync(root, { recursive: true, force: true });
  });
  let n = 0;

  /**
   * A user with a session token and, optionally, credits given through the ledger. Registered two
   * days ago (accounts younger than a day earn their uploaders nothing) unless `fresh`.
   */
  async function member(credits = 0, opts: { fresh?: boolean } = {}) {
    const u = await t.createUser(`dl_user_${++n}_${crypto.randomUUID().slice(0, 6)}`);
    if (!opts.fresh) getDb().update(user).set({ created_at: Date.now() - 2 * 86400_000 }).where(eq(user.id, u.user.id)).run();
    if (credits) changeCredits({ userId: u.user.id, amount: credits, kind: "admin", reason: "测试发放" });
    return { id: u.user.id, token: u.token };
  }

  /** A converted document whose original file exists; `content` is its bytes. */
  function doc(ownerId: number, opts: { price?: number; status?: number; deleted?: boolean; title?: string; ext?: string; content?: string | Uint8Array } = {}) {
    const ext = opts.ext ?? "pdf";
    const content = opts.content ?? `%PDF-1.4 测试文档 ${crypto.randomUUID()}`;
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const hash = createHash("md5").update(bytes).update(crypto.randomUUID()).digest("hex");
    const file = originalPath(hash, ext);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    const row = getDb().insert(document).values({
      uuid: crypto.randomUUID(), title: opts.title ?? `下载测试文档 ${++n}`, user_id: ownerId, hash, ext, size: bytes.length, pages: 3,
      price: opts.price ?? 0, status: opts.status ?? 2, deleted_at: opts.deleted ? Date.now() : null,
    }).returning().get();
    return { ...row, bytes };
  }

  /** Writes download settings (and resets the request rate limiters the API shares). */
  function settings(values: Record<string, string | number | boolean>, group = "download") {
    updateConfig(Object.entries(values).map(([name, value]) => ({ category: group, name, value })));
    resetAll();
  }

  const balance = (id: number) => getDb().select({ c: user.credit_count }).from(user).where(eq(user.id, id)).get()!.c;
  const ledger = (id: number, kind?: string) =>
    getDb().select().from(creditLog).where(kind ? and(eq(creditLog.user_id, id), eq(creditLog.kind, kind)) : eq(creditLog.user_id, id)).all();
  const downloadsOf = (documentId: number) => getDb().select().from(download).where(eq(download.document_id, documentId)).all();
  const downloadCount = (documentId: number) => getDb().select({ n: document.download_count }).from(document).where(eq(document.id, documentId)).get()!.n;

  const post = (body: unknown, token?: string, ip?: string) =>
    t.req("POST", "/api/v1/document/download", { body, token, headers: ip ? { "x-forwarded-for": ip } : {} });

  return { t, member, doc, settings, balance, ledger, downloadsOf, downloadCount, post };
}

/** The filename*= value of a Content-Disposition header, decoded. */
export function starName(header: string | null): string {
  const m = header?.match(/filename\*=UTF-8''([^;]+)/);
  return m ? decodeURIComponent(m[1]!) : "";
}
