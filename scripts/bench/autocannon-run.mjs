// One load run for scripts/bench/lib.ts → loadRun(): autocannon 9 (devDependency) in its own Node
// process, never inside the process being measured. Options come as one JSON argument; one JSON
// line goes to stdout.
//
// Why the API and not `autocannon --json`: the CLI's JSON keeps latencies in an HDR histogram of
// whole milliseconds and reports only p2.5/p50/p97.5/p99 (no p95). Here every 2xx response time is
// taken from autocannon's own 'response' event (process.hrtime, float ms) and the percentiles,
// p95 included, are computed exactly from those samples. autocannon's own p50/p97.5/p99 are kept
// alongside as a cross-check.
import autocannon from "autocannon";

const opts = JSON.parse(process.argv[2] ?? "{}");
let samples = new Float64Array(1 << 16);
let n = 0;
let non2xx = 0;
let bodyless = 0;
const instance = autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.durationMs / 1000,
  headers: opts.headers ?? {},
  timeout: 10,
  // autocannon checks its stop flag once per sample interval (default 1 s): 50 ms keeps the run's
  // length, and so req/s, close to what was asked.
  sampleInt: 50,
});
instance.on("response", (_client, statusCode, _bytes, ms) => {
  if (statusCode < 200 || statusCode > 299) {
    non2xx++;
    return;
  }
  if (_bytes === 0) bodyless++;
  if (n === samples.length) {
    const next = new Float64Array(samples.length * 2);
    next.set(samples);
    samples = next;
  }
  samples[n++] = ms;
});
instance.on("done", (r) => {
  const sorted = samples.subarray(0, n).sort();
  const pct = (p) => (n ? sorted[Math.min(n - 1, Math.ceil((p / 100) * n) - 1)] : null);
  const seconds = r.duration;
  process.stdout.write(`${JSON.stringify({
    requests: n,
    non2xx,
    errors: r.errors + r.timeouts + non2xx,
    rps: n / seconds,
    p50: pct(50), p95: pct(95), p99: pct(99), max: n ? sorted[n - 1] : null,
    bytes: r.throughput.total,
    seconds,
    autocannon: { p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, bodyless },
  })}\n`);
});
