// Shared set-up for the chat tests: the stand-in model server, the llm settings pointing at it,
// and helpers to read an NDJSON answer.
import { afterAll, beforeAll } from "bun:test";
import { updateConfig } from "#src/features/settings/service.ts";
import { startFakeLlm, type FakeLlm } from "../helpers/fakeLlm.ts";
import type { TestApp } from "../helpers/testApp.ts";

export function useFakeLlm(opts: Parameters<typeof startFakeLlm>[0] = {}) {
  const box = {} as { llm: FakeLlm };
  beforeAll(() => {
    box.llm = startFakeLlm(opts);
  });
  afterAll(() => box.llm?.stop());
  return box;
}

export function configureLlm(llm: FakeLlm, extra: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = { enable: true, provider: "custom", base_url: llm.baseUrl, api_key: "sk-test", model: "fake-model", timeout: 5, ...extra };
  updateConfig(Object.entries(values).map(([name, value]) => ({ category: "llm", name, value })));
}

export interface NdEvent { type: string; [k: string]: any }

/** Reads NDJSON events from a response body until it ends (or `until` says stop reading). */
export async function readEvents(res: Response, until?: (e: NdEvent, all: NdEvent[]) => boolean): Promise<NdEvent[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const events: NdEvent[] = [];
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const e = JSON.parse(line) as NdEvent;
      events.push(e);
      if (until?.(e, events)) {
        await reader.cancel();
        return events;
      }
    }
  }
  return events;
}

export const textOf = (events: NdEvent[]) => events.filter((e) => e.type === "delta").map((e) => e.content).join("");

/** POST /chat/stream through app.request; answers the raw Response. */
export const streamAsk = (t: TestApp, token: string, body: Record<string, unknown>, signal?: AbortSignal) =>
  t.app.request("/api/v1/chat/stream", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body), signal });

export async function newTopic(t: TestApp, token: string, body: Record<string, unknown> = { category: 1 }) {
  const r = await t.req("POST", "/api/v1/chat/topic", { token, body });
  if (r.status !== 200) throw new Error(`topic: ${r.status} ${r.text}`);
  return r.body as { id: number; uuid: string };
}

/** Waits until `check` is true (polling), or fails after `ms`. */
export async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}
