// Shared top progress bar state (spec §9: shown only after 200 ms, given up after 5000 ms).
import { signal } from "@preact/signals-react";

export const PROGRESS_THROTTLE_MS = 200;
export const PROGRESS_DURATION_MS = 5000;
export const progressActive = signal(false);

let pending = 0;
let showTimer: ReturnType<typeof setTimeout> | undefined;
let hideTimer: ReturnType<typeof setTimeout> | undefined;

export function startProgress() {
  pending++;
  if (pending > 1) return;
  clearTimeout(showTimer);
  clearTimeout(hideTimer);
  showTimer = setTimeout(() => {
    progressActive.value = true;
    hideTimer = setTimeout(() => (progressActive.value = false), PROGRESS_DURATION_MS);
  }, PROGRESS_THROTTLE_MS);
}

export function doneProgress() {
  pending = Math.max(0, pending - 1);
  if (pending) return;
  clearTimeout(showTimer);
  clearTimeout(hideTimer);
  progressActive.value = false;
}
