// POST {base}/rerank of the stand-in model server (fakeLlm.ts), in the shape SiliconFlow, Jina and
// Cohere share: {model, query, documents, top_n} → {id, results: [{index, relevance_score}], meta}.
// The relevance is character overlap — the share of the query's distinct characters a document
// holds — so tests know the order the "model" will give. Modes reproduce a failing service.

export type RerankMode = "ok" | "fail" | "hang" | "malformed" | "unauthorized";

export interface FakeRerank {
  mode: RerankMode;
  /** the request bodies received, in order */
  requests: { model: string; query: string; documents: string[]; top_n?: number }[];
}

export const newFakeRerank = (): FakeRerank => ({ mode: "ok", requests: [] });

const charsOf = (text: string) => new Set([...text.toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c)));

/** Share of the query's distinct letters, digits and Han characters found in the document. */
export function overlapScore(query: string, document: string): number {
  const q = charsOf(query);
  if (!q.size) return 0;
  const d = charsOf(document);
  let n = 0;
  for (const c of q) if (d.has(c)) n++;
  return n / q.size;
}

export async function rerankResponse(state: FakeRerank, req: Request, apiKey: string): Promise<Response> {
  const body = (await req.json().catch(() => null)) as { model?: unknown; query?: unknown; documents?: unknown; top_n?: unknown } | null;
  if (state.mode === "unauthorized" || req.headers.get("authorization") !== `Bearer ${apiKey}`) {
    return Response.json({ code: 20015, message: "Invalid token", data: null }, { status: 401 });
  }
  if (typeof body?.query !== "string" || !Array.isArray(body.documents) || body.documents.some((d) => typeof d !== "string") || typeof body.model !== "string") {
    return Response.json({ code: 20012, message: "invalid parameters", data: null }, { status: 400 });
  }
  const documents = body.documents as string[];
  state.requests.push({ model: body.model, query: body.query, documents, top_n: typeof body.top_n === "number" ? body.top_n : undefined });
  if (state.mode === "fail") return Response.json({ code: 50000, message: "Internal server error", data: null }, { status: 500 });
  if (state.mode === "hang") {
    await new Promise((resolve) => req.signal.addEventListener("abort", resolve, { once: true }));
    return new Response(null, { status: 499 });
  }
  if (state.mode === "malformed") return Response.json({ id: crypto.randomUUID(), results: [{ index: documents.length + 5, relevance_score: "high" }] });
  const query = body.query;
  const topN = typeof body.top_n === "number" && body.top_n > 0 ? Math.floor(body.top_n) : documents.length;
  const results = documents.map((d, index) => ({ index, relevance_score: overlapScore(query, d) }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index).slice(0, topN);
  const tokens = query.length + documents.reduce((n, d) => n + d.length, 0);
  return Response.json({ id: crypto.randomUUID(), results, meta: { billed_units: { search_units: 1 }, tokens: { input_tokens: tokens, output_tokens: 0 } } });
}
