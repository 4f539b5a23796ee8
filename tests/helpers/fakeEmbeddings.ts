// POST /v1/embeddings of the fake OpenAI-compatible server (fakeLlm.ts), in the real response
// shape: {object: "list", data: [{object: "embedding", index, embedding}], model, usage}. Vectors
// are deterministic: character unigrams and bigrams hashed into `dims` signed buckets, normalised,
// so texts sharing words are near each other and a test can compute the expected vector itself.
// Modes reproduce provider failures: 401 (wrong key), 429 then success, 500, a wrong width.

export type FakeEmbeddingMode = "ok" | "unauthorized" | "fail" | "ratelimit-once" | "wrong-dims" | "hang";

export interface FakeEmbeddings {
  mode: FakeEmbeddingMode;
  /** width when the request sends no `dimensions` */
  dims: number;
  /** delay before answering, ms */
  delayMs: number;
  requests: { body: any; headers: Record<string, string>; at: number }[];
}

export const newFakeEmbeddings = (dims = 64): FakeEmbeddings => ({ mode: "ok", dims, delayMs: 0, requests: [] });

function bucket(s: string, dims: number): [number, number] {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return [h % dims, (h >>> 16) & 1 ? 1 : -1];
}

/** The stand-in's vector of a text. */
export function fakeEmbedding(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  const chars = [...text.replace(/\s+/g, "")];
  chars.forEach((c, i) => {
    const [b, sign] = bucket(c, dims);
    v[b]! += sign * 0.5;
    if (i + 1 < chars.length) {
      const [b2, sign2] = bucket(c + chars[i + 1], dims);
      v[b2]! += sign2;
    }
  });
  const norm = Math.hypot(...v) || 1;
  // An empty text still gets a unit vector (cosine distance of a zero vector is undefined).
  return norm === 1 && v.every((x) => x === 0) ? v.map((_, i) => (i === 0 ? 1 : 0)) : v.map((x) => x / norm);
}

const han = (t: string) => (t.match(/\p{Script=Han}/gu) ?? []).length;
const tokens = (t: string) => han(t) + Math.ceil((t.length - han(t)) / 4);

export async function embeddingsResponse(state: FakeEmbeddings, req: Request, apiKey: string): Promise<Response> {
  const body = await req.json().catch(() => null);
  state.requests.push({ body, headers: Object.fromEntries(req.headers), at: Date.now() });
  if (state.delayMs) await Bun.sleep(state.delayMs);
  if (state.mode === "hang") await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
  if (state.mode === "unauthorized" || req.headers.get("authorization") !== `Bearer ${apiKey}`) {
    return Response.json({ error: { message: "Invalid API key provided", type: "invalid_request_error", code: "invalid_api_key" } }, { status: 401 });
  }
  if (state.mode === "fail") return Response.json({ error: { message: "Internal server error", type: "server_error" } }, { status: 500 });
  if (state.mode === "ratelimit-once") {
    state.mode = "ok";
    return Response.json({ error: { message: "Rate limit reached", type: "rate_limit_error" } }, { status: 429, headers: { "Retry-After": "0" } });
  }
  const input: string[] = typeof body?.input === "string" ? [body.input] : Array.isArray(body?.input) ? body.input : [];
  if (!input.length || !body?.model) return Response.json({ error: { message: "input and model are required", type: "invalid_request_error" } }, { status: 400 });
  const dims = (Number(body.dimensions) || state.dims) + (state.mode === "wrong-dims" ? 16 : 0);
  const used = input.reduce((n, t) => n + tokens(String(t)), 0);
  return Response.json({
    object: "list",
    data: input.map((t, index) => ({ object: "embedding", index, embedding: fakeEmbedding(String(t), dims) })),
    model: body.model,
    usage: { prompt_tokens: used, total_tokens: used },
  });
}
