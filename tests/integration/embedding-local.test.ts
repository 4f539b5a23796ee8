// The local path end to end: a converted document → page chunks → vectors made by a real ONNX
// model (the tests' tiny BERT-shaped one, run by @huggingface/transformers on onnxruntime-node)
// in a real sqlite-vec table, and a phrase of one page finds that page.
import { beforeAll, describe, expect, test } from "bun:test";
import { getSqlite } from "#db/client.ts";
import { activeSpace, syncSpaces, vecTable } from "#src/features/embedding/spaces.ts";
import { embedQuery, embeddingActive, knnChunks } from "#src/features/embedding/vectors.ts";
import { queueEmbedding } from "#src/features/embedding/enqueue.ts";
import { setupTestApp } from "../helpers/testApp.ts";
import { addDoc } from "./search-fixtures.ts";
import { countOf, drainEmbeddingJobs, LOCAL, resetEmbeddingState, rows, setEmbedding, TINY_DIMS, useTinyModel } from "./embedding-fixtures.ts";

setupTestApp();
useTinyModel();
beforeAll(() => resetEmbeddingState());

const LABOUR = [
  "劳动合同是劳动者与用人单位确立劳动关系、明确双方权利和义务的协议。建立劳动关系，应当订立书面劳动合同。用人单位自用工之日起即与劳动者建立劳动关系。",
  "有下列情形之一的，用人单位可以解除劳动合同：在试用期间被证明不符合录用条件的；严重违反用人单位的规章制度的；严重失职，营私舞弊，给用人单位造成重大损害的。解除劳动合同时应当依法支付经济补偿。",
];
const PHYSICS = [
  "牛顿第二定律指出，物体加速度的大小跟作用力成正比，跟物体的质量成反比，加速度的方向跟作用力的方向相同。公式为 F = ma。",
  "能量守恒定律：能量既不会凭空产生，也不会凭空消失，它只会从一种形式转化为另一种形式，或者从一个物体转移到其他物体，而能量的总量保持不变。",
];
const COOKING = [
  "红烧肉的做法：五花肉切块焯水，锅中放少许油和冰糖炒出糖色，下肉块翻炒上色，加入料酒、生抽、老抽和葱姜，加开水没过肉块，小火炖一个小时。",
  "清蒸鲈鱼：鲈鱼处理干净后在鱼身划几刀，放姜丝和葱段，水开后上锅蒸八分钟，倒掉蒸出的汤汁，铺上葱丝，淋上蒸鱼豉油和热油即可。",
];

describe("embeddings with a local ONNX model folder", () => {
  test("off: nothing is queued, retrieval is not told to use vectors", () => {
    const d = addDoc({ title: "未启用时的文档", pages: ["这是一页普通的文字。"] });
    queueEmbedding(d.id);
    expect(embeddingActive()).toBe(false);
    expect(countOf("SELECT count(*) AS n FROM jobs WHERE kind LIKE 'embedding.%'")).toBe(0);
    expect(countOf("SELECT count(*) AS n FROM embedding_space")).toBe(0);
  });

  test("switching on builds a space in the background; chunks, vectors and statuses follow; a phrase finds its page", async () => {
    const labour = addDoc({ title: "劳动合同法解读", pages: LABOUR });
    const physics = addDoc({ title: "高中物理公式", pages: PHYSICS });
    const cooking = addDoc({ title: "家常菜谱", pages: COOKING });
    addDoc({ title: "回收站里的文档", pages: ["劳动合同解除的条件"], deleted: true });
    addDoc({ title: "被禁用的文档", pages: ["劳动合同解除的条件"], status: 4 });
    setEmbedding(LOCAL);
    const space = syncSpaces()!;
    expect(space).toMatchObject({ status: 0, dimensions: TINY_DIMS, model_key: `local|tiny-zh|${TINY_DIMS}|120|20` });
    // Building, not active yet: retrieval still keyword-only.
    expect(embeddingActive()).toBe(false);
    await drainEmbeddingJobs();
    expect(activeSpace()?.id).toBe(space.id);
    expect(embeddingActive()).toBe(true);

    const ids = [labour.id, physics.id, cooking.id];
    const chunks = rows<{ document_id: number; page: number; start: number; text: string }>("SELECT document_id, page, start, text FROM chunk ORDER BY id");
    expect(new Set(chunks.map((c) => c.document_id))).toEqual(new Set([...ids, 1]));
    // Every chunk is a slice of its page's text at its offset.
    for (const c of chunks) {
      const page = getSqlite().query<{ text: string }, [number, number]>("SELECT text FROM document_page WHERE document_id = ? AND page = ?").get(c.document_id, c.page)!.text;
      expect(page.slice(c.start, c.start + c.text.length)).toBe(c.text);
    }
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(space.id)}`)).toBe(chunks.length);
    const statuses = rows<{ document_id: number; status: number; chunks: number; error: string }>("SELECT document_id, status, chunks, error FROM document_embedding WHERE space_id = ? ORDER BY document_id", space.id);
    expect(statuses.every((s) => s.status === 2 && s.chunks > 0 && s.error === "")).toBe(true);
    // Deleted and disabled documents get no vectors.
    expect(statuses.map((s) => s.document_id).sort((a, b) => a - b)).toEqual([1, ...ids]);

    const q = await embedQuery("用人单位可以解除劳动合同的情形");
    expect(q).toBeInstanceOf(Float32Array);
    expect(q!.length).toBe(TINY_DIMS);
    const hits = knnChunks(q!, 5);
    expect(hits[0]).toMatchObject({ document_id: labour.id, page: 2 });
    expect(hits[0]!.distance).toBeLessThan(hits.at(-1)!.distance);
    const steamed = knnChunks((await embedQuery("清蒸鲈鱼的做法"))!, 3);
    expect(steamed[0]).toMatchObject({ document_id: cooking.id, page: 2 });
    // The same question again comes from the cache: the identical vector object.
    expect(await embedQuery("清蒸鲈鱼的做法")).toBe((await embedQuery("清蒸鲈鱼的做法"))!);
  });

  test("a document converted after the switch is embedded by its own job; an unchanged text is not embedded twice", async () => {
    const d = addDoc({ title: "新上传的文档", pages: ["量子纠缠是一种物理现象，两个粒子的状态相互关联。"] });
    queueEmbedding(d.id);
    expect(countOf("SELECT count(*) AS n FROM document_embedding WHERE document_id = ? AND status = 0", d.id)).toBe(1);
    await drainEmbeddingJobs();
    const space = activeSpace()!;
    const first = rows<{ id: number }>("SELECT id FROM chunk WHERE document_id = ?", d.id);
    expect(first.length).toBe(1);
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(space.id)} WHERE rowid = ?`, first[0]!.id)).toBe(1);
    queueEmbedding(d.id);
    await drainEmbeddingJobs();
    expect(rows<{ id: number }>("SELECT id FROM chunk WHERE document_id = ?", d.id)).toEqual(first);
    // New text (a reconversion): the chunk is replaced, its old vector goes, the new one is found.
    getSqlite().query("UPDATE document_page SET text = ? WHERE document_id = ?").run("超导体在极低温度下电阻消失。", d.id);
    queueEmbedding(d.id);
    await drainEmbeddingJobs();
    const second = rows<{ id: number }>("SELECT id FROM chunk WHERE document_id = ?", d.id);
    expect(second[0]!.id).not.toBe(first[0]!.id);
    expect(countOf(`SELECT count(*) AS n FROM ${vecTable(space.id)} WHERE rowid = ?`, first[0]!.id)).toBe(0);
    expect(knnChunks((await embedQuery("超导体电阻"))!, 1)[0]).toMatchObject({ document_id: d.id, page: 1 });
  });
});
