// AI chat benchmark (AI-chat issue), one run, against a production server process on loopback:
//   · first-token latency added by us: for each of 50 questions, the stand-in model's own first
//     token (asked directly, same prompt size) and ours through /api/v1/chat/stream (retrieval
//     over a library of 10,000 documents / 30,000 pages included); target p95 < 50 ms
//   · 20 concurrent streams: all complete, server RSS added per stream
//   · stop: time from the client's abort to the model server seeing its connection closed (< 1 s)
//   · chat island size gzipped (≤ 120 KB)
// The stand-in model (tests/helpers/fakeLlm.ts) answers its first token after a fixed delay and
// streams the rest; it runs in this bench process, the site in its own.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { closeDatabase, configureDatabase, getSqlite, openDatabase } from "#db/client.ts";
import { startFakeLlm } from "../../tests/helpers/fakeLlm.ts";
import { zipfText } from "./zipfText.ts";
import { fmt, printMachine, prepareDirs, startServer, table, verdict } from "./lib.ts";

printMachine();

const DOCS = Number(process.env.BENCH_CHAT_DOCS) || 10_000;
const PAGES = 3;
const QUESTIONS = 50;
const FIRST_TOKEN_MS = 300;
const CONCURRENT = 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

// A library that reads like one (zipfText.ts), seeded so every run is the same.
const { rnd, word, pageText } = zipfText();
const pagesByDoc: string[][] = [];

const dirs = await prepareDirs();
const fake = startFakeLlm({ firstTokenDelayMs: FIRST_TOKEN_MS, chunkDelayMs: 20, chunkSize: 6, reply: "根据资料 [1]，这部分内容主要讨论了相关概念的定义、常见方法与应用场景 [2]。".repeat(3) });

// Fill the database before the server opens it.
const buildStart = performance.now();
configureDatabase(() => openDatabase(join(dirs.dataDir, "wenku.db")));
const { indexDocument } = await import("#src/features/search/indexer.ts");
const { createSession } = await import("#src/features/auth/sessions.ts");
const db = getSqlite();
const titles: string[] = [];
db.transaction(() => {
  const owner = db.query<{ id: number }, []>("INSERT INTO user (username, password) VALUES ('bench-owner', 'x') RETURNING id").get()!.id;
  const doc = db.query<{ id: number }, [string, string, number, string, number, number]>(
    "INSERT INTO document (uuid, title, user_id, hash, ext, pages, preview, status) VALUES (?, ?, ?, ?, 'pdf', ?, ?, 2) RETURNING id");
  const page = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  for (let i = 0; i < DOCS; i++) {
    const title = `${word()}${word()}${["教程", "讲义", "手册", "笔记", "概论"][rnd(5)]}`;
    titles.push(title);
    const texts = Array.from({ length: PAGES }, pageText);
    pagesByDoc.push(texts);
    const id = doc.get(crypto.randomUUID().replaceAll("-", ""), title, owner, crypto.randomUUID().replaceAll("-", ""), PAGES, PAGES)!.id;
    texts.forEach((text, p) => page.run(id, p + 1, text));
    indexDocument(id);
  }
  const set = db.query("INSERT INTO config (category, name, value) VALUES ('llm', ?, ?) ON CONFLICT(category, name) DO UPDATE SET value = excluded.value");
  for (const [k, v] of Object.entries({ enable: "true", provider: "custom", base_url: fake.baseUrl, api_key: "sk-test", model: "fake-model", timeout: "60" })) set.run(k, v);
})();
const users: string[] = [];
for (let i = 0; i < CONCURRENT + 1; i++) {
  const id = db.query<{ id: number }, [string]>("INSERT INTO user (username, password, is_root) VALUES (?, 'x', 1) RETURNING id").get(`bench-chat-${i}`)!.id;
  users.push(createSession(id).token);
}
db.exec("INSERT INTO search_fts (search_fts) VALUES ('optimize')");
closeDatabase();
const buildMs = performance.now() - buildStart;

const server = await startServer(dirs);
const headers = (token: string) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });

async function topic(token: string) {
  const r = await fetch(`${server.url}/api/v1/chat/topic`, { method: "POST", headers: headers(token), body: JSON.stringify({ category: 1 }) });
  return ((await r.json()) as { id: number }).id;
}

/** One streamed answer: ms to the first delta, to the end, and the events seen. */
async function ask(token: string, topicId: number, content: string, abortAfterFirst = false) {
  const ctrl = new AbortController();
  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/v1/chat/stream`, { method: "POST", headers: headers(token), body: JSON.stringify({ topic_id: topicId, content }), signal: ctrl.signal });
  if (res.status !== 200) throw new Error(`stream ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let first = 0;
  let buf = "";
  let last = "";
  let abortedAt = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      if (!first && buf.includes('"type":"delta"')) {
        first = performance.now() - t0;
        if (abortAfterFirst) {
          abortedAt = Date.now();
          ctrl.abort();
          break;
        }
      }
      const lines = buf.split("\n");
      last = lines.at(-2) || last;
    }
  } catch {}
  return { first, total: performance.now() - t0, last, abortedAt };
}

/** The model's own first token for a prompt of the same size, asked directly. */
async function direct(messages: unknown) {
  const t0 = performance.now();
  const res = await fetch(`${fake.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer sk-test" }, body: JSON.stringify({ model: "fake-model", stream: true, messages }) });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    if (/"content":"[^"]/.test(buf)) {
      const ms = performance.now() - t0;
      await reader.cancel();
      return ms;
    }
  }
  return NaN;
}

try {
  // Warm-up (jieba dictionary, prepared statements).
  await ask(users[0]!, await topic(users[0]!), "人工智能的基本概念");
  const ours: number[] = [];
  const theirs: number[] = [];
  const tp = await topic(users[0]!);
  for (let i = 0; i < QUESTIONS; i++) {
    // Words of one real page, asked the way people ask.
    const words = pagesByDoc[rnd(DOCS)]![rnd(PAGES)]!.split(/[，。、；]/).join("").match(/.{2}/g)!;
    const at = rnd(words.length - 4);
    const q = `请问${words.slice(at, at + 3).join("")}是什么意思？有哪些相关的内容？`;
    const r = await ask(users[0]!, tp, q);
    if (!r.last.includes('"type":"done"')) throw new Error(`answer did not finish: ${r.last}`);
    ours.push(r.first);
    theirs.push(await direct(fake.requests.at(-1)!.body.messages));
  }
  const added = ours.map((o, i) => o - theirs[i]!);

  // 20 concurrent streams from 20 users.
  const pid = server.proc.pid;
  const rssBefore = rssOf(pid);
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10);
  const topics = await Promise.all(users.slice(1).map((u) => topic(u)));
  const results = await Promise.all(users.slice(1).map((u, i) => ask(u, topics[i]!, `${word()}和${word()}有什么区别？`)));
  clearInterval(sampler);
  const completed = results.filter((r) => r.last.includes('"type":"done"')).length;

  // Stop: abort after the first token; the model server records when its client went away.
  const stops: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await ask(users[0]!, tp, `${word()}的发展历史`, true);
    const rec = fake.requests.at(-1)!;
    const deadline = Date.now() + 3000;
    while (rec.closedAt === null && Date.now() < deadline) await Bun.sleep(2);
    stops.push(rec.closedAt === null ? Infinity : rec.closedAt - r.abortedAt);
    await Bun.sleep(50);
  }

  // Island size: the chat island's entry, everything it imports, and the hydration entry.
  const manifest = JSON.parse(readFileSync(join(dirs.distDir, "manifest.json"), "utf8")) as { client: string; islands: Record<string, string>; imports: Record<string, string[]> };
  const gz = (url: string) => gzipSync(readFileSync(join(dirs.distDir, url.replace(/^\//, ""))), { level: 9 }).byteLength;
  const closure = (entry: string) => {
    const seen = new Set<string>();
    const walk = (u: string) => {
      if (seen.has(u)) return;
      seen.add(u);
      for (const d of manifest.imports[u] ?? []) walk(d);
    };
    walk(entry);
    walk(manifest.client);
    return seen;
  };
  const chatEntry = manifest.islands.ChatApp;
  const chatFiles = chatEntry ? closure(chatEntry) : new Set<string>();
  const chatGz = [...chatFiles].reduce((n, f) => n + gz(f), 0);

  console.log(`machine: ${navigator.hardwareConcurrency} cores · load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} · library ${DOCS} documents × ${PAGES} pages (built + indexed in ${fmt(buildMs / 1000, 1)} s)`);
  console.log(`stand-in model: first token after ${FIRST_TOKEN_MS} ms, then 6 characters every 20 ms; one client, answers one after another`);
  table(["first token (ms)", "p50", "p95", "max"], [
    ["model asked directly", fmt(pct(theirs, 50), 1), fmt(pct(theirs, 95), 1), fmt(Math.max(...theirs), 1)],
    ["through /api/v1/chat/stream", fmt(pct(ours, 50), 1), fmt(pct(ours, 95), 1), fmt(Math.max(...ours), 1)],
    ["added by us (retrieval, prompt, proxy)", fmt(pct(added, 50), 1), fmt(pct(added, 95), 1), fmt(Math.max(...added), 1)],
  ]);
  console.log(`${CONCURRENT} concurrent streams: ${completed}/${CONCURRENT} complete · server RSS ${fmt(rssBefore, 1)} MB → peak ${fmt(peak, 1)} MB (+${fmt((peak - rssBefore) / CONCURRENT * 1024, 0)} KB per stream)`);
  console.log(`stop → upstream closed (ms, 10 aborts): p50 ${fmt(pct(stops, 50), 1)} · max ${fmt(Math.max(...stops), 1)}`);
  console.log(`chat island: ${chatFiles.size} files incl. React and the hydration entry, ${fmt(chatGz / 1024, 1)} KB gzip -9`);
  const ok = verdict([
    { target: "first token ≤ model's own + 50 ms (p95, retrieval included)", value: `+${fmt(pct(added, 95), 1)} ms`, ok: pct(added, 95) < 50 },
    { target: `${CONCURRENT} concurrent streams all complete`, value: `${completed}/${CONCURRENT}`, ok: completed === CONCURRENT },
    { target: "stop closes the upstream stream within 1 s", value: `max ${fmt(Math.max(...stops), 1)} ms`, ok: Math.max(...stops) < 1000 },
    { target: "chat island ≤ 120 KB gzipped", value: chatEntry ? `${fmt(chatGz / 1024, 1)} KB` : "ChatApp island not built", ok: !!chatEntry && chatGz <= 120 * 1024 },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  fake.stop();
  await server.stop();
  dirs.cleanup();
}
