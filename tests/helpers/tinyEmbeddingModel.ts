import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { onnx } from "onnx-proto";

// A tiny BERT-shaped embedding model the tests build themselves (no weights can be downloaded
// here), laid out exactly like a Hugging Face ONNX export so the real loading path runs:
// @huggingface/transformers reads config.json (model_type bert), tokenizer.json (a WordPiece
// BertTokenizer), tokenizer_config.json and onnx/model.onnx, and onnxruntime-node runs the graph.
//
// Graph: input_ids, attention_mask, token_type_ids (int64 [batch, seq], what transformers.js feeds a
// BERT feature-extraction model) → Gather from a fixed pseudo-random character table + the token
// type table, masked, plus the masked mean of the sequence as context → MatMul → Tanh →
// last_hidden_state [batch, seq, dims] (the output the pipeline reads). Mean pooling of that is a
// smooth bag-of-characters vector: texts sharing characters land near each other, which is enough
// for a nearest-neighbour test to find the page a phrase came from. It knows no meaning.

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const CJK_PUNCT = "。，、；：？！“”‘’（）《》【】…—·「」『』〈〉％＋－＝～";

/** Every CJK unified ideograph (U+4E00–U+9FFF), CJK punctuation and printable ASCII with WordPiece continuations. */
export function tinyVocab(): string[] {
  const vocab = [...SPECIAL];
  for (let c = 0x21; c < 0x7f; c++) {
    const ch = String.fromCharCode(c);
    if (ch >= "A" && ch <= "Z") continue; // the normaliser lowercases
    vocab.push(ch);
    if (/[a-z0-9]/.test(ch)) vocab.push(`##${ch}`);
  }
  for (const ch of CJK_PUNCT) vocab.push(ch);
  for (let c = 0x4e00; c <= 0x9fff; c++) vocab.push(String.fromCharCode(c));
  return vocab;
}

// mulberry32: the same table on every run and machine.
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const floats = (n: number, rand: () => number, scale: number) => {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
  return out;
};

/**
 * The character table; special tokens ([PAD] [UNK] [CLS] [SEP] [MASK]) are zero, else [CLS] and
 * [SEP] — in every text — would pull all short texts together under mean pooling. Small values keep
 * Tanh near-linear, so the pooled vector stays a readable bag of characters.
 */
function wordTable(vocabSize: number, dims: number, rand: () => number) {
  const t = floats(vocabSize * dims, rand, 0.5);
  t.fill(0, 0, SPECIAL.length * dims);
  return t;
}

/** Identity plus a little noise: a projection that mixes dimensions without scrambling them. */
function nearIdentity(dims: number, rand: () => number) {
  const m = floats(dims * dims, rand, 0.1 / Math.sqrt(dims));
  for (let i = 0; i < dims; i++) m[i * dims + i]! += 1;
  return m;
}

const F = onnx.TensorProto.DataType.FLOAT;
const I64 = onnx.TensorProto.DataType.INT64;

function tensor(name: string, dims: number[], data: Float32Array | BigInt64Array, type = F): onnx.ITensorProto {
  return { name, dims, dataType: type, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

const io = (name: string, type: number, shape: (string | number)[]): onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType: type, shape: { dim: shape.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } } },
});

const node = (opType: string, input: string[], output: string[], attribute: onnx.IAttributeProto[] = []): onnx.INodeProto => ({ opType, input, output, name: output[0], attribute });
const intAttr = (name: string, i: number): onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const intsAttr = (name: string, ints: number[]): onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints });

/** The ONNX bytes of the tiny model. */
export function tinyModelBytes(vocabSize: number, dims: number, seed = 20240516): Uint8Array {
  const rand = prng(seed);
  const graph: onnx.IGraphProto = {
    name: "tiny_bert",
    input: [io("input_ids", I64, ["batch", "seq"]), io("attention_mask", I64, ["batch", "seq"]), io("token_type_ids", I64, ["batch", "seq"])],
    output: [io("last_hidden_state", F, ["batch", "seq", dims])],
    initializer: [
      tensor("word_embeddings", [vocabSize, dims], wordTable(vocabSize, dims, rand)),
      tensor("token_type_embeddings", [2, dims], floats(2 * dims, rand, 0.05)),
      tensor("dense", [dims, dims], nearIdentity(dims, rand)),
      tensor("context_weight", [], new Float32Array([0.25])),
      tensor("eps", [], new Float32Array([1e-6])),
    ],
    node: [
      node("Gather", ["word_embeddings", "input_ids"], ["words"], [intAttr("axis", 0)]),
      node("Gather", ["token_type_embeddings", "token_type_ids"], ["types"], [intAttr("axis", 0)]),
      node("Add", ["words", "types"], ["embedded"]),
      node("Cast", ["attention_mask"], ["mask_f"], [intAttr("to", F)]),
      node("Unsqueeze", ["mask_f"], ["mask3"], [intsAttr("axes", [2])]),
      node("Mul", ["embedded", "mask3"], ["masked"]),
      // Masked mean over the sequence: the sentence as context for every token.
      node("ReduceSum", ["masked"], ["sum"], [intsAttr("axes", [1]), intAttr("keepdims", 1)]),
      node("ReduceSum", ["mask3"], ["count"], [intsAttr("axes", [1]), intAttr("keepdims", 1)]),
      node("Add", ["count", "eps"], ["count_safe"]),
      node("Div", ["sum", "count_safe"], ["mean"]),
      node("Mul", ["mean", "context_weight"], ["context"]),
      node("Add", ["masked", "context"], ["mixed"]),
      node("MatMul", ["mixed", "dense"], ["projected"]),
      node("Tanh", ["projected"], ["last_hidden_state"]),
    ],
  };
  // Opset 12: Unsqueeze and ReduceSum still take their axes as attributes.
  const model: onnx.IModelProto = { irVersion: 7, opsetImport: [{ domain: "", version: 12 }], producerName: "wenku-tests", graph };
  return onnx.ModelProto.encode(model).finish();
}

function tokenizerJson(vocab: string[]) {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (t: string) => ({ id: ids[t], content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const tok = (t: string) => ({ id: t, ids: [ids[t]], tokens: [t] });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }, { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } }],
      special_tokens: { "[CLS]": tok("[CLS]"), "[SEP]": tok("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: ids },
  };
}

export interface TinyModel { folder: string; dims: number; vocabSize: number }

/**
 * Writes the model folder at `folder` (e.g. DATA_DIR/models/tiny-zh): config.json, tokenizer.json,
 * tokenizer_config.json, 1_Pooling/config.json (mean pooling) and onnx/model.onnx.
 */
export function buildTinyEmbeddingModel(folder: string, dims = 64): TinyModel {
  const vocab = tinyVocab();
  mkdirSync(join(folder, "onnx"), { recursive: true });
  mkdirSync(join(folder, "1_Pooling"), { recursive: true });
  const json = (file: string, v: unknown) => writeFileSync(join(folder, file), JSON.stringify(v));
  json("config.json", {
    model_type: "bert", architectures: ["BertModel"], hidden_size: dims, vocab_size: vocab.length, type_vocab_size: 2,
    num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: dims, max_position_embeddings: 512, pad_token_id: 0,
  });
  json("tokenizer.json", tokenizerJson(vocab));
  json("tokenizer_config.json", {
    tokenizer_class: "BertTokenizer", model_max_length: 512, do_lower_case: true, tokenize_chinese_chars: true,
    cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]",
  });
  json("1_Pooling/config.json", { word_embedding_dimension: dims, pooling_mode_cls_token: false, pooling_mode_mean_tokens: true });
  writeFileSync(join(folder, "onnx", "model.onnx"), tinyModelBytes(vocab.length, dims));
  return { folder, dims, vocabSize: vocab.length };
}
