// Demo documents: the sample files in assets/samples go through the same path as a member's
// upload (content check, MD5, storage, document rows, conversion job), then a worker converts them
// with the real tools so a fresh site has readable documents. Idempotent by file hash.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document } from "#db/schema/documents.ts";
import { user } from "#db/schema/users.ts";
import { createDocuments } from "#src/features/documents/create.ts";
import { storeDocumentUpload } from "#src/features/documents/upload.ts";
import { DOC_STATUS } from "#src/features/documents/status.ts";
import { startWorker } from "#src/jobs/worker.ts";
import "#src/jobs/registry.ts";

const SAMPLES_DIR = resolve(import.meta.dir, "../../assets/samples");

/** Sample file → category title (from the seeded tree), price in credits, recommended on the home page. */
const PLACEMENT: Record<string, { category: string; price: number; recommend?: boolean }> = {
  "高中物理公式.pdf": { category: "中小学教育", price: 0, recommend: true },
  "工作总结模板.docx": { category: "工作总结", price: 2, recommend: true },
  "产品介绍演示.pptx": { category: "经济管理", price: 0 },
  "销售数据表.xlsx": { category: "表格模板", price: 1 },
  "古诗词选.txt": { category: "中小学教育", price: 0, recommend: true },
  "公司规章制度.epub": { category: "合同协议", price: 3 },
  "学习笔记.md": { category: "IT/计算机", price: 0 },
  "请假审批流程图.png": { category: "计划方案", price: 0 },
  // Longer documents, also the retrieval harness's labelled set (scripts/bench/retrieval.ts).
  "员工手册.md": { category: "职业培训", price: 0 },
  "家庭急救常识.txt": { category: "医药卫生", price: 0 },
  "阳台种菜指南.docx": { category: "兴趣爱好", price: 0 },
};

export async function seedDocuments(categoryIds: Map<string, number>, counts: { created: number; kept: number }) {
  const admin = getDb().select({ id: user.id, is_root: user.is_root }).from(user).where(eq(user.is_root, true)).get();
  if (!admin) throw new Error("seed documents: no root administrator");
  const created: number[] = [];
  for (const name of readdirSync(SAMPLES_DIR).sort()) {
    const place = PLACEMENT[name];
    if (!place) continue;
    const bytes = readFileSync(join(SAMPLES_DIR, name));
    const hash = new Bun.CryptoHasher("md5").update(bytes).digest("hex");
    if (getDb().select({ id: document.id }).from(document).where(eq(document.hash, hash)).get()) {
      counts.kept++;
      continue;
    }
    const att = await storeDocumentUpload(admin, new File([bytes], name), "127.0.0.1");
    const title = name.replace(/\.[^.]+$/, "");
    const [doc] = createDocuments(admin, { document: [{ title, attachment_id: att.id, category_id: categoryIds.get(place.category), price: place.price }] } as never, "127.0.0.1");
    if (place.recommend) getDb().update(document).set({ is_recommend: true, recommend_at: Date.now() }).where(eq(document.id, doc!.id)).run();
    created.push(doc!.id);
    counts.created++;
  }
  if (created.length) await convertNow(created);
}

/** Runs the job worker in this process until the seeded documents have left the conversion queue. */
async function convertNow(ids: number[]) {
  console.log(`正在转换 ${ids.length} 篇示例文档（LibreOffice / MuPDF / Calibre）…`);
  const worker = startWorker({ concurrency: 2, pollMs: 200 });
  const busy = [DOC_STATUS.pending, DOC_STATUS.converting, DOC_STATUS.reconvert];
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    const rows = getDb().select({ title: document.title, status: document.status, error: document.convert_error }).from(document).where(inArray(document.id, ids)).all();
    if (rows.every((r) => !busy.includes(r.status as never))) {
      for (const r of rows) if (r.status !== DOC_STATUS.converted) console.log(`  《${r.title}》转换失败：${r.error}`);
      console.log(`示例文档：${rows.filter((r) => r.status === DOC_STATUS.converted).length}/${rows.length} 篇转换成功`);
      break;
    }
    await Bun.sleep(300);
  }
  await worker.stop();
}
