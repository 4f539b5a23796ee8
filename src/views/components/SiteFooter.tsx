import { getSettings } from "#src/features/settings/service.ts";
import { layoutData } from "#src/features/site/layoutData.ts";
import { isBuilt, SECTIONS } from "#src/features/site/sections.ts";
import BackToTop from "#islands/site/BackToTop.tsx";
import { copyrightYears } from "#src/lib/format.ts";
import { Island } from "../Island.tsx";
import { useRequest } from "../request.tsx";
import { AdSlot } from "./AdSlot.tsx";

const FOOTER_LINKS: [key: string, label: string][] = [
  ["about", "关于我们"], ["agreement", "用户协议"], ["contact", "联系我们"], ["feedback", "意见反馈"], ["disclaimer", "免责声明"], ["copyright", "版权声明"],
];

const ext = (href: string) => (/^https?:\/\//i.test(href) ? { target: "_blank", rel: "noopener noreferrer" } : {});

export function SiteFooter() {
  const { path } = useRequest();
  const s = getSettings();
  const sys = s.system;
  // Configured URLs into a section not built yet (e.g. an /article/… page) stay stored but unlinked.
  const links = FOOTER_LINKS.filter(([k]) => String(s.footer[k] || "").trim() && isBuilt(String(s.footer[k])));
  const friendlinks = path === "/" ? layoutData().friendlinks : [];
  return (
    <footer className="site-footer">
      <AdSlot position="global_bottom" />
      <div className="container">
        {friendlinks.length ? (
          <div className="friendlinks">
            <span className="friendlinks-title">友情链接：</span>
            {friendlinks.map((f) => <a key={f.id} href={f.link} target="_blank" rel="noopener noreferrer">{f.title}</a>)}
          </div>
        ) : null}
        {links.length ? (
          <nav className="footer-links" aria-label="页脚链接">
            {links.map(([k, label]) => <a key={k} href={String(s.footer[k])} {...ext(String(s.footer[k]))}>{label}</a>)}
          </nav>
        ) : null}
        {String(s.display.copyright_statement || "") ? <p className="copyright-statement">{String(s.display.copyright_statement)}</p> : null}
        <p className="footer-meta">
          <span>© {copyrightYears(sys.copyright_start_year as number)} <a href="/">{String(sys.sitename)}</a></span>
          <a href="/sitemap.xml">网站地图</a>
          {sys.icp ? <a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">{String(sys.icp)}</a> : null}
          {sys.sec_icp ? <a href="https://beian.mps.gov.cn/" target="_blank" rel="noopener noreferrer">{String(sys.sec_icp)}</a> : null}
        </p>
        {sys.enable_powered_by ? <p className="powered-by">Powered by 魔豆文库 Bun 版 v{String(sys.version)}</p> : null}
      </div>
    </footer>
  );
}

/** Fixed right bar: publish article (once articles exist), upload, optional QR code, optional contact link, back to top. */
export function RightBar() {
  const d = getSettings().display;
  const qrcode = String(d.wechat_qrcode || "");
  const contact = String(d.contact_link || "");
  return (
    <aside className="rightbar" aria-label="快捷操作">
      {SECTIONS.articles ? (
        <a className="rightbar-item" href="/post" title="发布文章">
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M3 17.25V21h3.75L17.8 9.94l-3.75-3.75zM20.7 7.04a1 1 0 0 0 0-1.41l-2.33-2.33a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75z" /></svg>
          <span>发文章</span>
        </a>
      ) : null}
      <a className="rightbar-item" href="/upload" title="上传文档">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M5 20h14v-2H5zm0-10h4v6h6v-6h4l-7-7z" /></svg>
        <span>上传</span>
      </a>
      {qrcode ? (
        <div className="rightbar-item rightbar-qrcode" tabIndex={0} title={String(d.wechat_tip || "")}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm8-2h2v2h-2zm4 0h4v2h-4zm-4 4h4v4h-4zm6 0h2v4h-2z" /></svg>
          <span>二维码</span>
          <div className="qrcode-pop"><img src={qrcode} alt="二维码" width={140} height={140} /><p>{String(d.wechat_tip || "")}</p></div>
        </div>
      ) : null}
      {contact ? (
        <a className="rightbar-item" href={contact} {...ext(contact)} title={String(d.contact_tip || "联系我们")}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2" /></svg>
          <span>{String(d.contact_tip || "联系")}</span>
        </a>
      ) : null}
      <Island name="BackToTop" component={BackToTop} props={{}} />
    </aside>
  );
}
