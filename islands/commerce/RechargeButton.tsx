import { useEffect, useState } from "react";

/**
 * The personal centre's 充值 button; the dialog's code (RechargeDialog.tsx, its own chunk at `url`)
 * loads on first use. The header menu's recharge link leads here (/me?recharge=1) when clicked
 * before the menu's script ran, so that address opens the dialog at once.
 */
export default function RechargeButton({ label, url }: { label: string; url: string }) {
  const [ready, setReady] = useState(false);
  const open = () => void import(/* @vite-ignore */ url).then((m: { openRecharge: () => void }) => m.openRecharge());
  useEffect(() => {
    setReady(true);
    const q = new URLSearchParams(location.search);
    if (q.get("recharge") !== "1") return;
    q.delete("recharge");
    const rest = q.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
    open();
  }, []);
  return <button type="button" className="btn btn-primary btn-sm recharge-btn" disabled={!ready} onClick={open}>{label}</button>;
}
