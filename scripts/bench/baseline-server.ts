// The static baseline of design.md §8: a bare Bun.serve in its own process answering every request
// with the same bytes and headers from memory (no routing, no middleware, no file system).
// Started by startBaseline() in lib.ts: argv = [body file, headers JSON]; prints its URL on stdout.
import { readFileSync } from "node:fs";

const [file, headersJson] = process.argv.slice(2);
if (!file) throw new Error("usage: bun scripts/bench/baseline-server.ts <body file> [headers JSON]");
const body = new Uint8Array(readFileSync(file));
const headers = JSON.parse(headersJson ?? "{}") as Record<string, string>;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => new Response(body, { headers }),
});
console.log(`http://127.0.0.1:${server.port}`);
