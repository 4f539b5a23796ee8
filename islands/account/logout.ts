import { api } from "../api.ts";
import { clearClientState, flashThenGo, toast } from "../toast.ts";

/** DELETE /user/logout, clear client state, say 退出成功 and go home (spec §4). */
export async function logout() {
  const r = await api("DELETE", "/user/logout");
  if (!r.ok && r.status !== 401) return toast(r.message || "退出失败", "error");
  clearClientState();
  flashThenGo("退出成功", "/");
}
