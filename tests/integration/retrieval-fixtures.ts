// A small library for the retrieval tests, written the way a finished conversion leaves it
// (search-fixtures.ts): a document whose third page is past the preview, a deleted and a disabled
// one holding their own words, two documents for topic scopes, and filler for realistic word
// statistics. Every test asks retrieve() itself, the function chat calls.
import { getSqlite } from "#db/client.ts";
import { addDoc, addFiller } from "./search-fixtures.ts";

export interface Library {
  ownerId: number;
  firstAid: { id: number; uuid: string };
  deleted: { id: number; uuid: string };
  disabled: { id: number; uuid: string };
  physics: { id: number; uuid: string };
  poems: { id: number; uuid: string };
}

// Page 3 of 急救 is past its preview: only its owner and buyers may get it.
export const PAST_PREVIEW = "气道异物梗阻时使用海姆立克急救法：站在患者背后双臂环抱腰部，一手握拳顶在肚脐上方，快速向内向上冲击。";

export function addLibrary(ownerId: number): Library {
  addFiller(20);
  const firstAid = addDoc({
    title: "家庭急救常识", userId: ownerId, preview: 2,
    pages: [
      "心脏骤停时立即开始心肺复苏：胸外按压深度五到六厘米，频率每分钟一百到一百二十次。",
      "被猫狗咬伤或抓伤后，用肥皂水和流动清水交替冲洗伤口约十五分钟，并及时接种狂犬病疫苗。",
      PAST_PREVIEW,
    ],
  });
  const deleted = addDoc({ title: "已删除的急救资料", userId: ownerId, deleted: true, pages: ["删除文档专有词汇：烫伤后用流动凉水冲洗伤处十五到三十分钟。"] });
  const disabled = addDoc({ title: "已禁用的急救资料", userId: ownerId, status: 4, pages: ["禁用文档专有词汇：流鼻血时身体前倾，捏住鼻翼压迫十分钟。"] });
  const physics = addDoc({ title: "高中物理公式", userId: ownerId, pages: ["牛顿第二定律：合外力等于质量乘以加速度。", "动量守恒定律：系统不受外力或合外力为零时总动量保持不变。"] });
  const poems = addDoc({ title: "古诗词选", userId: ownerId, pages: ["静夜思：床前明月光，疑是地上霜。举头望明月，低头思故乡。", "春晓：春眠不觉晓，处处闻啼鸟。"] });
  return { ownerId, firstAid, deleted, disabled, physics, poems };
}

export const buy = (userId: number, documentId: number) =>
  getSqlite().query("INSERT INTO download (user_id, document_id, price) VALUES (?, ?, 5)").run(userId, documentId);

export const keys = (pages: { document_id: number; page: number }[]) => pages.map((p) => `${p.document_id}:${p.page}`);
