// A stand-in for an OpenAI-compatible model server on loopback, speaking the real protocol:
// POST {base}/chat/completions with `stream: true` answers text/event-stream `data: {chunk}` lines
// ending in `data: [DONE]`, with a usage chunk when `stream_options.include_usage` is set, exactly
// as DeepSeek, DashScope, Moonshot & co. do; without `stream` it answers one JSON completion.
// Modes reproduce what real providers do wrong: slow, 401, 500, malformed stream, hang.

import { newFakeRerank, rerankResponse, type FakeRerank } from "./fakeRerank.ts";
import { embeddingsResponse, newFakeEmbeddings, type FakeEmbeddings } from "./fakeEmbeddings.ts";

export type FakeMode = "ok" | "slow" | "unauthorized" | "fail" | "malformed" | "hang" | "nousage";

export interface FakeRequest {
  body: any;
  headers: Record<string, string>;
  at: number;
  /** when the client went away before the answer was complete (ms timestamp), else null */
  closedAt: number | null;
  /** when the server finished writing the whole answer, else null */
  finishedAt: number | null;
}

export interface FakeLlm {
  url: string;
  /** base URL to configure (…/v1) */
  baseUrl: string;
  requests: FakeRequest[];
  mode: FakeMode;
  /** delay before the first content chunk */
  firstTokenDelayMs: number;
  /** delay between chunks */
  chunkDelayMs: number;
  /** the answer: fixed text, or made from the request body (the prompt) */
  reply: string | ((body: any) => string);
  /** characters per chunk */
  chunkSize: number;
  /** POST /v1/rerank: its mode and the requests it received (fakeRerank.ts) */
  rerank: FakeRerank;
  /** POST /v1/embeddings: its mode, width and the requests it received (fakeEmbeddings.ts) */
  embeddings: FakeEmbeddings;
  stop(): void;
}

const enc = new TextEncoder();

function chunkOf(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** Rough token count of the stand-in, the same each run: one per Han character, one per 4 other characters. */
export function fakeTokens(text: string) {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  return han + Math.ceil((text.length - han) / 4);
}

export function startFakeLlm(opts: Partial<Pick<FakeLlm, "mode" | "firstTokenDelayMs" | "chunkDelayMs" | "reply" | "chunkSize">> & { apiKey?: string } = {}): FakeLlm {
  const state: FakeLlm = {
    url: "", baseUrl: "", requests: [],
    mode: opts.mode ?? "ok",
    firstTokenDelayMs: opts.firstTokenDelayMs ?? 0,
    chunkDelayMs: opts.chunkDelayMs ?? 0,
    reply: opts.reply ?? "根据资料，答案如下 [1]。",
    chunkSize: opts.chunkSize ?? 4,
    rerank: newFakeRerank(),
    embeddings: newFakeEmbeddings(),
    stop: () => {},
  };
  const apiKey = opts.apiKey ?? "sk-test";
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/v1/models") return Response.json({ object: "list", data: [{ id: "fake-model", object: "model" }] });
      if (url.pathname === "/v1/rerank" && req.method === "POST") return rerankResponse(state.rerank, req, apiKey);
      if (url.pathname === "/v1/embeddings" && req.method === "POST") return embeddingsResponse(state.embeddings, req, apiKey);
      if (url.pathname !== "/v1/chat/completions" || req.method !== "POST") return Response.json({ error: { message: "Not found", type: "invalid_request_error" } }, { status: 404 });
      const body = await req.json().catch(() => null);
      const rec: FakeRequest = { body, headers: Object.fromEntries(req.headers), at: Date.now(), closedAt: null, finishedAt: null };
      state.requests.push(rec);
      if (state.mode === "unauthorized" || req.headers.get("authorization") !== `Bearer ${apiKey}`) {
        return Response.json({ error: { message: "Authentication Fails (no such user)", type: "authentication_error", code: "invalid_api_key" } }, { status: 401 });
      }
      if (state.mode === "fail") return Response.json({ error: { message: "Internal server error", type: "server_error" } }, { status: 500 });
      const model = String(body?.model ?? "fake-model");
      const text = typeof state.reply === "function" ? state.reply(body) : state.reply;
      const promptText = (body?.messages ?? []).map((m: { content: string }) => m.content).join("\n");
      const usage = { prompt_tokens: fakeTokens(promptText), completion_tokens: fakeTokens(text), total_tokens: fakeTokens(promptText) + fakeTokens(text) };
      const id = `chatcmpl-${crypto.randomUUID()}`;
      if (!body?.stream) {
        await Bun.sleep(state.firstTokenDelayMs);
        rec.finishedAt = Date.now();
        return Response.json({ id, object: "chat.completion", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage });
      }
      const signal = req.signal;
      signal.addEventListener("abort", () => { if (!rec.finishedAt) rec.closedAt ??= Date.now(); });
      const mode = state.mode;
      const delay = mode === "slow" ? Math.max(state.chunkDelayMs, 200) : state.chunkDelayMs;
      const stream = new ReadableStream<Uint8Array>({
        async start(ctrl) {
          const send = (obj: unknown) => ctrl.enqueue(enc.encode(`data: ${typeof obj === "string" ? obj : JSON.stringify(obj)}\n\n`));
          try {
            send(chunkOf(id, model, { role: "assistant", content: "" }));
            await Bun.sleep(state.firstTokenDelayMs);
            if (mode === "hang") {
              await new Promise((resolve) => signal.addEventListener("abort", resolve));
              return;
            }
            if (mode === "malformed") {
              send(chunkOf(id, model, { content: "开头" }));
              ctrl.enqueue(enc.encode("data: {\"id\": \"broken\", \"choices\": [{\"delta\": {\"content\": \n\n"));
              ctrl.close();
              return;
            }
            for (let i = 0; i < text.length; i += state.chunkSize) {
              if (signal.aborted) return;
              send(chunkOf(id, model, { content: text.slice(i, i + state.chunkSize) }));
              if (delay) await Bun.sleep(delay);
            }
            send(chunkOf(id, model, {}, "stop"));
            if (body?.stream_options?.include_usage && mode !== "nousage") send({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [], usage });
            send("[DONE]");
            rec.finishedAt = Date.now();
            ctrl.close();
          } catch {
            // the client went away while we were writing
            rec.closedAt ??= Date.now();
          }
        },
        cancel() {
          rec.closedAt ??= Date.now();
        },
      });
      return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" } });
    },
  });
  state.url = `http://127.0.0.1:${server.port}`;
  state.baseUrl = `${state.url}/v1`;
  state.stop = () => server.stop(true);
  return state;
}
