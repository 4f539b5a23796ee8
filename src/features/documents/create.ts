import { and, eq } from "drizzle-orm";
import { existsSync } from "node:fs";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { attachment } from "#db/schema/site.ts";
import { enqueueConversion } from "#src/features/convert/enqueue.ts";
import { DYNAMIC_TYPES, dynamicLine, recordDynamic } from "#src/features/me/dynamic.ts";
import { bumpContentVersion } from "#src/lib/contentVersion.ts";
import { AppError, badRequest, forbidden } from "#src/lib/errors.ts";
import { usableChain, writeChain } from "./categories.ts";
import { refreshUserDocCounts } from "./counts.ts";
import { assertLanguage, defaultLanguage } from "./languages.ts";
import { originalPath } from "./paths.ts";
import { assertMayUpload, uploadPolicy, type Actor, type DocumentRow } from "./policy.ts";
import type { CreateBody } from "./schema.ts";
import { DOC_STATUS } from "./status.ts";
import { ATTACHMENT_DOCUMENT, attachKnownUpload, BANNED, isBanned, mustKnowUpload, type AttachmentRow } from "./upload.ts";

type Item = CreateBody["document"][number];

/** Activity-feed kind of "uploaded a document" (1–3 are register, sign-in and avatar). */
export const DYNAMIC_UPLOAD = DYNAMIC_TYPES.upload;

/** A 32-hex public id (design.md: public URLs use the uuid). */
export const newUuid = () => crypto.randomUUID().replaceAll("-", "");

/** The user's own uploaded, not yet used attachment whose original is still on disk. */
function ownAttachment(actor: Actor, id: number): AttachmentRow {
  const a = getDb().select().from(attachment).where(and(eq(attachment.id, id), eq(attachment.type, ATTACHMENT_DOCUMENT))).get();
  if (!a || (a.user_id !== actor.id && !actor.is_root) || !existsSync(originalPath(a.hash, a.ext))) throw badRequest("文档文件不存在，请重新上传");
  if (getDb().select({ id: document.id }).from(document).where(eq(document.attachment_id, id)).get()) throw badRequest("该文件已经创建过文档，请勿重复提交");
  if (isBanned(a.hash)) throw forbidden(BANNED);
  return a;
}

interface Prepared { item: Item; chain: number[]; language: string; attachment: AttachmentRow | null; known: AttachmentRow | null }

function prepare(actor: Actor, item: Item, shared: number[] | undefined): Prepared {
  const leaf = item.category_id ?? shared?.at(-1);
  if (!leaf) throw badRequest("请选择文档分类");
  const chain = usableChain(leaf);
  const language = item.language ?? defaultLanguage();
  assertLanguage(language);
  if (item.attachment_id !== undefined) return { item, chain, language, attachment: ownAttachment(actor, item.attachment_id), known: null };
  return { item, chain, language, attachment: null, known: mustKnowUpload(actor, item.hash!) };
}

/**
 * Creates documents from uploaded files in one transaction: every item is checked first, so a
 * bad item leaves nothing behind. Status 6 when the user's groups want review, else 0; either
 * way the conversion is queued (the converter keeps 6 until an admin approves).
 */
export function createDocuments(actor: Actor, body: CreateBody, ip: string): DocumentRow[] {
  assertMayUpload(actor);
  const { needsReview } = uploadPolicy(actor);
  const many = body.document.length > 1;
  const prepared = body.document.map((item) => {
    try {
      return prepare(actor, item, body.category_id);
    } catch (err) {
      if (many && err instanceof AppError) throw new AppError(err.status, err.code, `《${item.title}》：${err.message}`);
      throw err;
    }
  });
  const ids = prepared.map((p) => p.attachment?.id).filter((x): x is number => !!x);
  if (new Set(ids).size !== ids.length) throw badRequest("同一个文件不能重复创建文档");
  const docs = getDb().transaction((tx) => {
    const out: DocumentRow[] = [];
    for (const p of prepared) {
      const att = p.attachment ?? attachKnownUpload(actor, p.known!, p.item.name || `${p.item.title}.${p.known!.ext}`, ip);
      const d = tx.insert(document).values({
        uuid: newUuid(), title: p.item.title, keywords: p.item.keywords ?? "", description: p.item.description ?? "", user_id: actor.id,
        category_id: p.chain.at(-1)!, attachment_id: att.id, hash: att.hash, ext: att.ext, size: att.size, language: p.language, price: p.item.price,
        status: needsReview ? DOC_STATUS.pendingReview : DOC_STATUS.pending,
      }).returning().get();
      tx.update(attachment).set({ type_id: d.id }).where(eq(attachment.id, att.id)).run();
      writeChain(d.id, p.chain, tx);
      recordDynamic(actor.id, DYNAMIC_UPLOAD, dynamicLine.upload(d.title), tx);
      // Queued in the same transaction: a crash cannot leave a document without its job.
      enqueueConversion(d.id);
      out.push(d);
    }
    // No upload award here: it is paid when a document becomes public (credits/uploadAward.ts).
    return out;
  });
  refreshUserDocCounts([actor.id]);
  bumpContentVersion();
  return docs;
}
