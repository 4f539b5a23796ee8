// Small DOM toasts (no React needed) and a flash message that survives one navigation.
const FLASH_KEY = "wk-flash";

export function toast(message: string, kind: "success" | "error" | "info" = "info") {
  let box = document.getElementById("wk-toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "wk-toasts";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    document.body.appendChild(box);
  }
  const el = document.createElement("div");
  el.className = `toast toast-${kind}`;
  el.textContent = message;
  box.appendChild(el);
  setTimeout(() => el.remove(), 3000);
}

export function flashThenGo(message: string, href: string) {
  sessionStorage.setItem(FLASH_KEY, message);
  location.href = href;
}

export function showFlash() {
  const msg = sessionStorage.getItem(FLASH_KEY);
  if (msg) {
    sessionStorage.removeItem(FLASH_KEY);
    toast(msg, "success");
  }
}

/** Clears every client-side trace of the user (spec §4: logout clears local storage). */
export function clearClientState() {
  try {
    localStorage.clear();
  } catch {}
}
