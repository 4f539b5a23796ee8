-- wrk's report for scripts/bench/lib.ts → loadRun(): one JSON line on stdout, latencies in ms from
-- wrk's own histogram (every response; non-2xx are counted as errors and left out of rps).
done = function(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.status + e.timeout
  local ok = summary.requests - e.status
  local seconds = summary.duration / 1e6
  local function ms(us) return us / 1000 end
  io.write(string.format(
    '{"requests":%d,"errors":%d,"rps":%.3f,"p50":%.3f,"p95":%.3f,"p99":%.3f,"max":%.3f,"bytes":%d,"seconds":%.3f,"wrk":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    ok, errors, ok / seconds, ms(latency:percentile(50)), ms(latency:percentile(95)), ms(latency:percentile(99)), ms(latency.max),
    summary.bytes, seconds, e.connect, e.read, e.write, e.status, e.timeout))
end
