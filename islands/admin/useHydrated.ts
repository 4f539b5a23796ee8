// Two hooks every admin island used to spell out by hand.
import { useEffect, useRef, useState } from "react";

/** False in the server HTML and until hydration (controls stay disabled, never dead); true once live. */
export function useHydrated(): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return live;
}

/** Calls `load` each time it changes after hydration; the first rows came with the server HTML. */
export function useReloadOnChange(load: () => unknown) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void load();
  }, [load]);
}
