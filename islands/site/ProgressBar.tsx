import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { doneProgress, progressActive, startProgress } from "./progress.ts";

/** Top progress bar: in-page loading (api.ts) and leaving the page both drive it. */
export default function ProgressBar() {
  useSignals();
  useEffect(() => {
    const leave = () => startProgress();
    const back = (e: PageTransitionEvent) => e.persisted && doneProgress();
    addEventListener("beforeunload", leave);
    addEventListener("pageshow", back);
    return () => {
      removeEventListener("beforeunload", leave);
      removeEventListener("pageshow", back);
    };
  }, []);
  return <div className={progressActive.value ? "top-progress active" : "top-progress"} role="progressbar" aria-hidden={!progressActive.value} />;
}
