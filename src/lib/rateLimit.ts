// Fixed-window counters in memory: enough for one process; keys like "login:ip:1.2.3.4".
const windows = new Map<string, { count: number; resetAt: number }>();

/** Counts one hit; returns false when `limit` hits within `windowMs` are already used. */
export function hit(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
  const w = windows.get(key);
  if (!w || w.resetAt <= now) {
    windows.set(key, { count: 1, resetAt: now + windowMs });
    if (windows.size > 100_000) sweep(now);
    return true;
  }
  w.count++;
  return w.count <= limit;
}

export function reset(key: string) {
  windows.delete(key);
}

// Counters kept elsewhere (the login throttle lives in SQLite) register here, so "forget every
// counter" (tests) reaches them too. A restart calls nothing here: persisted counters survive it.
const resetHooks = new Set<() => void>();
export const onResetAll = (fn: () => void) => void resetHooks.add(fn);

export function resetAll() {
  windows.clear();
  for (const fn of resetHooks) fn();
}

function sweep(now: number) {
  for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
}
