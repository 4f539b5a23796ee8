// Worker thread of the local embedder: onnxruntime-node's InferenceSession.run blocks the thread
// that calls it for the whole inference, and tokenising is plain JS, so both happen here and never
// on the server's event loop. One worker per model folder; messages are one batch each.

interface Init { type: "init"; dataDir: string; id: string; dtype: "fp32" | "q8"; threads: number }
interface Embed { type: "embed"; seq: number; texts: string[]; pooling: "cls" | "mean" }

type Extractor = (texts: string[], opts: { pooling: "cls" | "mean"; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>;
let extractor: Promise<Extractor> | null = null;

async function load(m: Init): Promise<Extractor> {
  const tf = await import("@huggingface/transformers");
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.useFSCache = false;
  tf.env.localModelPath = `${m.dataDir}/`;
  const pipe = await tf.pipeline("feature-extraction", m.id, {
    dtype: m.dtype, device: "cpu", local_files_only: true,
    // Leave a core to the server on small machines.
    session_options: { intraOpNumThreads: m.threads, interOpNumThreads: 1 },
  });
  return pipe as unknown as Extractor;
}

globalThis.onmessage = async (e: MessageEvent<Init | Embed>) => {
  const m = e.data;
  if (m.type === "init") {
    extractor = load(m);
    try {
      await extractor;
      postMessage({ type: "ready" });
    } catch (err) {
      postMessage({ type: "failed", message: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  try {
    const extract = await extractor!;
    const out = await extract(m.texts, { pooling: m.pooling, normalize: true });
    // A copy with a buffer of its own, so the transfer moves exactly these floats.
    const data = Float32Array.from(out.data as ArrayLike<number>);
    postMessage({ type: "result", seq: m.seq, dims: out.dims, data }, [data.buffer]);
  } catch (err) {
    postMessage({ type: "result", seq: m.seq, error: err instanceof Error ? err.message : String(err) });
  }
};
