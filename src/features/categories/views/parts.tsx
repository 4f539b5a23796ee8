// Small server components of the category pages and the home page.

export function EmptyState({ title, text, action, compact }: { title: string; text?: string; action?: { href: string; label: string }; compact?: boolean }) {
  return (
    <div className={compact ? "empty-state empty-compact" : "empty-state"}>
      <svg viewBox="0 0 64 64" width="56" height="56" aria-hidden="true"><rect x="14" y="8" width="36" height="48" rx="4" fill="#eef2f7" stroke="#c9d3e0" strokeWidth="2" /><path d="M22 22h20M22 30h20M22 38h12" stroke="#c9d3e0" strokeWidth="3" strokeLinecap="round" /></svg>
      <p className="empty-title">{title}</p>
      {text ? <p className="muted">{text}</p> : null}
      {action ? <a className="btn btn-sm" href={action.href}>{action.label}</a> : null}
    </div>
  );
}

export function Breadcrumb({ items }: { items: { href?: string; label: string }[] }) {
  return (
    <nav className="breadcrumb" aria-label="当前位置">
      <ol>
        {items.map((it, i) => (
          <li key={i}>{it.href && i < items.length - 1 ? <a href={it.href}>{it.label}</a> : <span aria-current={i === items.length - 1 ? "page" : undefined}>{it.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}

/** `base` plus the non-empty params, in a fixed order so equal views share one URL (and cache entry). */
export function hrefWith(base: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "" && v !== null) q.set(k, String(v));
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

/** Numbered page links; `href(n)` keeps the rest of the query. */
export function PageNav({ page, pages, href }: { page: number; pages: number; href: (n: number) => string }) {
  if (pages <= 1) return null;
  const near = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  return (
    <nav className="page-nav" aria-label="分页">
      {page > 1 ? <a className="page-link" rel="prev" href={href(page - 1)}>上一页</a> : <span className="page-link disabled">上一页</span>}
      {near.map((n, i) => (
        <span key={n} className="page-num">
          {i > 0 && n - near[i - 1]! > 1 ? <span className="page-gap">…</span> : null}
          {n === page ? <span className="page-link active" aria-current="page">{n}</span> : <a className="page-link" href={href(n)}>{n}</a>}
        </span>
      ))}
      {page < pages ? <a className="page-link" rel="next" href={href(page + 1)}>下一页</a> : <span className="page-link disabled">下一页</span>}
    </nav>
  );
}

/** A category's icon image, or nothing (icons are optional). */
export const CategoryIcon = ({ src }: { src: string }) => (src ? <img className="cat-icon" src={src} alt="" width={24} height={24} loading="lazy" /> : null);
