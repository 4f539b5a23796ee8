import type { AppContext } from "#src/http/context.ts";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";

export function NotFoundView() {
  return (
    <div className="container status-page">
      <div className="status-code">404</div>
      <h1>This page could not be found</h1>
      <p className="muted">您访问的页面不存在或已被删除。</p>
      <a className="btn btn-primary" href="/">返回首页</a>
    </div>
  );
}

export function ErrorView({ status, message }: { status: number; message: string }) {
  return (
    <div className="container status-page">
      <div className="status-code">{status}</div>
      <h1>{message}</h1>
      <a className="btn btn-primary" href="/">返回首页</a>
    </div>
  );
}

export const renderNotFound = (c: AppContext) =>
  renderPage(c, <DefaultLayout><NotFoundView /></DefaultLayout>, { meta: { title: "页面不存在", noindex: true }, status: 404 });

export const renderErrorPage = (c: AppContext, status: number, message: string) =>
  renderPage(c, <DefaultLayout><ErrorView status={status} message={message} /></DefaultLayout>, { meta: { title: "出错了", noindex: true }, status });
