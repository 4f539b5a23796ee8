import type { ReactNode } from "react";
import { findUserById } from "#src/features/auth/users.ts";
import type { AppContext } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminEmailTest from "#islands/admin/AdminEmailTest.tsx";

/** The "send test e-mail" panel under /admin/config/email, prefilled with the admin's own address. */
export function emailTestCard(c: AppContext): ReactNode {
  const me = c.get("user");
  const email = (me && findUserById(me.id)?.email) || "";
  return (
    <section className="adm-card">
      <h2 className="adm-card-title">发送测试邮件</h2>
      <Island name="AdminEmailTest" component={AdminEmailTest} props={{ email }} />
    </section>
  );
}
