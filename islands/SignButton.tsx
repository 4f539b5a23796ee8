import { useEffect, useState } from "react";
import { api } from "./api.ts";
import { toast } from "./toast.ts";

/** Daily sign-in: shows 今日已签到 once done (GET /user/sign), signs with PUT /user/sign. */
export function SignButton({ creditName }: { creditName: string }) {
  const [signed, setSigned] = useState<boolean | null>(null);
  useEffect(() => {
    void api<{ id: number }>("GET", "/user/sign").then((r) => setSigned(r.ok && !!r.data?.id));
  }, []);
  const sign = async () => {
    const r = await api<{ award: number }>("PUT", "/user/sign");
    if (!r.ok) return toast(r.message || "签到失败", "error");
    setSigned(true);
    toast(`签到成功，获得 ${r.data?.award ?? 0} ${creditName}奖励`, "success");
  };
  return (
    <button type="button" className="btn btn-block btn-sign" disabled={signed !== false} onClick={() => void sign()}>
      {signed ? "今日已签到" : "每日签到"}
    </button>
  );
}
export default SignButton;
