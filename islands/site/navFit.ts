// How many admin navigation entries fit beside the fixed ones in the desktop nav; the rest go into
// an overflow menu (tablets and long menus). Widths are measured once, while everything is shown.
import { useEffect, useRef, useState, type RefObject } from "react";

/** Room kept for the overflow trigger (48 px wide in site.css, plus the gap). */
const MORE_WIDTH = 52;

export function useNavFit(fixedCount: number, entryCount: number): [RefObject<HTMLUListElement>, number] {
  const ref = useRef<HTMLUListElement>(null);
  const [fit, setFit] = useState(entryCount);
  useEffect(() => {
    const ul = ref.current;
    if (!ul || !entryCount) return;
    const gap = parseFloat(getComputedStyle(ul).columnGap) || 0;
    const widths = [...ul.children].map((li) => li.getBoundingClientRect().width + gap);
    const fixed = widths.slice(0, fixedCount).reduce((a, b) => a + b, 0);
    const entries = widths.slice(fixedCount, fixedCount + entryCount);
    const compute = () => {
      const room = ul.clientWidth;
      if (fixed + entries.reduce((a, b) => a + b, 0) <= room) return setFit(entryCount);
      let used = fixed + MORE_WIDTH;
      let n = 0;
      while (n < entries.length && used + entries[n]! <= room) used += entries[n++]!;
      setFit(n);
    };
    compute();
    const ro = new ResizeObserver(compute);
    ro.observe(ul);
    return () => ro.disconnect();
  }, [fixedCount, entryCount]);
  return [ref, fit];
}
