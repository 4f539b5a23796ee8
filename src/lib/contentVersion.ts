// A process-wide counter bumped by every write that can change what a public page shows.
// The anonymous page cache keys on it, so a write is visible on the next request.
let version = 1;
const listeners = new Set<() => void>();

export const contentVersion = () => version;

export function bumpContentVersion() {
  version++;
  for (const l of listeners) l();
}

export function onContentChange(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
