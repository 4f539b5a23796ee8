// Hydration entry: finds every island marker, loads that island's chunk and hydrates it in place.
import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";

type Loader = () => Promise<{ default: React.ComponentType<any> }>;
const manifestEl = document.getElementById("island-manifest");
const chunks: Record<string, string> = manifestEl ? JSON.parse(manifestEl.textContent || "{}") : {};

const RELOAD_KEY = "wk-chunk-reload";

// A failed chunk load (deploy replaced hashed files) reloads the page, at most once a minute.
function reloadOnce() {
  const last = Number(sessionStorage.getItem(RELOAD_KEY) || 0);
  if (Date.now() - last > 60_000) {
    sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
    location.reload();
  }
}

async function hydrate(el: HTMLElement) {
  const name = el.dataset.island!;
  const url = chunks[name];
  if (!url) return;
  try {
    const mod = await (import(/* @vite-ignore */ url) as ReturnType<Loader>);
    const props = JSON.parse(el.dataset.props || "{}");
    hydrateRoot(el, createElement(mod.default, props));
    el.dataset.hydrated = "1";
  } catch (err) {
    console.warn("island load failed", name, err);
    reloadOnce();
  }
}

// Below-the-fold islands (data-hydrate="visible") load their code when they come near the viewport.
// The marker is display: contents (no box of its own), so its first element is what gets observed.
const waiting = new Map<Element, HTMLElement>();
const whenVisible = typeof IntersectionObserver === "function"
  ? new IntersectionObserver((entries, io) => {
    for (const e of entries) {
      const el = waiting.get(e.target);
      if (!e.isIntersecting || !el) continue;
      io.unobserve(e.target);
      waiting.delete(e.target);
      void hydrate(el);
    }
  }, { rootMargin: "400px 0px" })
  : null;

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const box = el.firstElementChild;
  if (el.dataset.hydrate === "visible" && whenVisible && box) {
    waiting.set(box, el);
    whenVisible.observe(box);
  } else {
    void hydrate(el);
  }
}

import { showFlash } from "./toast.ts";
showFlash();
