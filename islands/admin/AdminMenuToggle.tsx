import { useEffect, useState } from "react";

// admin.css collapses the menu under 1000px unless .menu-open, and expands it above unless
// .menu-closed, so the first paint is right before any script runs; this button flips the state.
const NARROW = "(max-width: 999px)";

function isCollapsed(app: Element) {
  return matchMedia(NARROW).matches ? !app.classList.contains("menu-open") : app.classList.contains("menu-closed");
}

export default function AdminMenuToggle() {
  const [collapsed, setCollapsed] = useState<boolean | null>(null);
  useEffect(() => {
    const app = document.querySelector(".adm-app");
    if (!app) return;
    const sync = () => setCollapsed(isCollapsed(app));
    sync();
    const mq = matchMedia(NARROW);
    // Crossing the breakpoint returns to that width's default, as on first load.
    const reset = () => (app.classList.remove("menu-open", "menu-closed"), sync());
    mq.addEventListener("change", reset);
    const backdrop = document.querySelector(".adm-backdrop");
    const close = () => (app.classList.remove("menu-open"), sync());
    backdrop?.addEventListener("click", close);
    return () => {
      mq.removeEventListener("change", reset);
      backdrop?.removeEventListener("click", close);
    };
  }, []);
  const flip = () => {
    const app = document.querySelector(".adm-app");
    if (!app) return;
    app.classList.toggle(matchMedia(NARROW).matches ? "menu-open" : "menu-closed");
    setCollapsed(isCollapsed(app));
  };
  return (
    <button type="button" className="adm-icon-btn" aria-label={collapsed ? "展开菜单" : "收起菜单"} aria-expanded={collapsed === null ? undefined : !collapsed} disabled={collapsed === null} onClick={flip}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M3 6h18v2H3zm0 5h12v2H3zm0 5h18v2H3z" /></svg>
    </button>
  );
}
