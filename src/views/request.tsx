import { createContext, useContext } from "react";
import type { SessionUser } from "#src/features/auth/sessions.ts";

/** What server components may know about the current request. */
export interface RequestInfo {
  path: string;
  search: string;
  user: SessionUser | null;
}
export const RequestContext = createContext<RequestInfo>({ path: "/", search: "", user: null });
export const useRequest = () => useContext(RequestContext);
