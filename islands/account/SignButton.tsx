import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { toast } from "../toast.ts";

/**
 * Daily sign-in: shows 今日已签到 once done, signs with PUT /user/sign. Pages that already know
 * today's state pass `signed`; otherwise it is asked with GET /user/sign.
 */
export function SignButton({ creditName, signed: known }: { creditName: string; signed?: boolean }) {
  const [signed, setSigned] = useState<boolean | null>(known ?? null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (known !== undefined) return;
    void api<{ id: number }>("GET", "/user/sign").then((r) => setSigned(r.ok && !!r.data?.id));
  }, [known]);
  const sign = async () => {
    setBusy(true);
    const r = await api<{ award: number }>("PUT", "/user/sign");
    setBusy(false);
    if (!r.ok) return toast(r.message || "签到失败", "error");
    setSigned(true);
    toast(`签到成功，获得 ${r.data?.award ?? 0} ${creditName}奖励`, "success");
  };
  return (
    <button type="button" className="btn btn-block btn-sign" disabled={signed !== false || busy} onClick={() => void sign()}>
      {signed ? "今日已签到" : "每日签到"}
    </button>
  );
}
export default SignButton;
