// One of several separate processes racing to download on the same SQLite file (see
// downloads-concurrency.test.ts): waits for a shared start time, then tries its downloads through
// the production service and prints each outcome as one JSON line.
import { configureDatabase, openDatabase } from "#db/client.ts";
import { requestDownload } from "#src/features/downloads/service.ts";
import { AppError } from "#src/lib/errors.ts";

const file = process.env.DB_FILE!;
const userId = Number(process.env.USER_ID);
// One document per attempt: a paid download buys its document, so a repeat would be free.
const docIds = String(process.env.DOC_IDS).split(",").map(Number);
const startAt = Number(process.env.START_AT);

configureDatabase(() => openDatabase(file, { migrate: false }));
while (Date.now() < startAt) await Bun.sleep(1);
const out: { ok: boolean; status?: number; message?: string; price?: number }[] = [];
for (const docId of docIds) {
  try {
    const r = requestDownload({ userId, ip: "", doc: { id: docId } });
    out.push({ ok: true, price: r.price });
  } catch (e) {
    out.push(e instanceof AppError ? { ok: false, status: e.status, message: e.message } : { ok: false, message: String(e) });
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
