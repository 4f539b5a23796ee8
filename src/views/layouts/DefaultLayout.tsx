import type { ReactNode } from "react";
import { SiteHeader } from "../components/SiteHeader.tsx";
import { RightBar, SiteFooter } from "../components/SiteFooter.tsx";

/** Header, main, footer and the right bar; `footer={false}` is the article layout on /article. */
export function DefaultLayout({ children, footer = true }: { children: ReactNode; footer?: boolean }) {
  return (
    <>
      <SiteHeader />
      <main className="site-main">{children}</main>
      {footer ? <SiteFooter /> : null}
      <RightBar />
    </>
  );
}

/** Article layout: as the default one, without the footer on the /article list itself. */
export function ArticleLayout({ path, children }: { path: string; children: ReactNode }) {
  return <DefaultLayout footer={path !== "/article"}>{children}</DefaultLayout>;
}
