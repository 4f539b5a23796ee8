// Small hooks of the chat islands: the math renderer (temml, given by the server render through
// context, loaded lazily in the browser the first time an answer has math) and a ticking "now".
import { createContext, useContext, useEffect, useState } from "react";
import type { MathRenderer } from "./markdown.ts";

/** The server render provides temml here; in the browser it stays empty until temml is loaded. */
export const MathContext = createContext<MathRenderer | undefined>(undefined);

let loaded: MathRenderer | undefined;
let loading: Promise<MathRenderer> | undefined;

const loadTemml = () =>
  (loading ??= import("temml").then((m) => {
    const temml = m.default;
    loaded = (tex, display) => temml.renderToString(tex, { displayMode: display, throwOnError: true });
    return loaded;
  }));

/** The math renderer to use; `need` (some answer has math) starts loading temml (its own chunk). */
export function useMath(need: boolean): MathRenderer | undefined {
  const server = useContext(MathContext);
  const [fn, setFn] = useState<MathRenderer | undefined>(() => loaded);
  useEffect(() => {
    if (!need || fn || server) return;
    let live = true;
    loadTemml().then((f) => live && setFn(() => f), () => {});
    return () => {
      live = false;
    };
  }, [need, fn, server]);
  return server ?? fn;
}

/** The server's clock on the first render (so hydration matches), then the browser's, each minute. */
export function useNow(serverNow: number): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** False on the server and during hydration, then true: buttons stay disabled until they work. */
export function useHydrated(): boolean {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}
