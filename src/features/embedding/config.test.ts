import { describe, expect, test } from "bun:test";
import { modelKey, modelName, parseModelKey } from "./config.ts";

const base = { provider: "siliconflow", model: "BAAI/bge-m3", model_path: "bge-small-zh-v1.5", dimensions: 1024, chunk_size: 400, chunk_overlap: 60 };

describe("model key", () => {
  test("provider|model|dimensions|chunk_size|chunk_overlap, read back the same", () => {
    expect(modelKey(base)).toBe("siliconflow|BAAI/bge-m3|1024|400|60");
    expect(parseModelKey(modelKey(base))).toEqual({ provider: "siliconflow", model: "BAAI/bge-m3", dimensions: 1024, chunk_size: 400, chunk_overlap: 60 });
  });

  test("a local model is named by its folder, a remote one by its model name", () => {
    expect(modelName({ ...base, provider: "local" })).toBe("bge-small-zh-v1.5");
    expect(modelKey({ ...base, provider: "local" })).toBe("local|bge-small-zh-v1.5|1024|400|60");
    expect(modelName(base)).toBe("BAAI/bge-m3");
  });

  test("each part that changes the vectors changes the key; what does not (the folder of a remote model) does not", () => {
    const k = modelKey(base);
    for (const change of [{ provider: "gitee" }, { model: "BAAI/bge-large-zh-v1.5" }, { dimensions: 512 }, { chunk_size: 500 }, { chunk_overlap: 0 }]) {
      expect(modelKey({ ...base, ...change })).not.toBe(k);
    }
    expect(modelKey({ ...base, model_path: "other" })).toBe(k);
  });
});
