import { useEffect, useRef, useState } from "react";
import { useNavFit } from "./navFit.ts";

export interface NavCategory { id: number; title: string; children: { id: number; title: string }[] }
export interface NavEntry { id: number; title: string; href: string; target: string; color: string }
export interface HeaderNavProps {
  path: string;
  docCategories: NavCategory[];
  articleCategories: NavCategory[];
  navigation: (NavEntry & { children: NavEntry[] })[];
}

// Spec §9: the category card opens after hovering 600 ms and is 520 px wide.
export const CARD_DELAY_MS = 600;
const isExternal = (href: string) => /^https?:\/\//i.test(href);

/**
 * External (http/https) entries open in a new tab unless the admin configured a target. An entry
 * without a link (a group of children) is a focusable placeholder, so it never jumps to "#".
 */
export function NavLink({ item }: { item: Omit<NavEntry, "id"> }) {
  const ext = isExternal(item.href);
  return (
    <a href={item.href || undefined} tabIndex={item.href ? undefined : 0} style={item.color ? { color: item.color } : undefined} target={item.target || (ext ? "_blank" : undefined)} rel={ext ? "noopener noreferrer" : undefined}>
      {item.title}
    </a>
  );
}

function CategoryCard({ kind, cats }: { kind: "doc" | "article"; cats: NavCategory[] }) {
  const base = kind === "doc" ? "/category/" : "/article?category_id=";
  if (!cats.length) return <div className="cat-card" role="menu" style={{ width: 520 }}><p className="muted">暂无分类</p></div>;
  return (
    <div className="cat-card" role="menu" style={{ width: 520 }}>
      {cats.map((c) => (
        <dl key={c.id}>
          <dt><a href={base + c.id}>{c.title}</a></dt>
          <dd>{c.children.map((s) => <a key={s.id} href={base + s.id}>{s.title}</a>)}</dd>
        </dl>
      ))}
    </div>
  );
}

export default function HeaderNav({ path, docCategories, articleCategories, navigation }: HeaderNavProps) {
  const [open, setOpen] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const enter = (key: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(key), CARD_DELAY_MS);
  };
  const leave = () => {
    clearTimeout(timer.current);
    setOpen(null);
  };
  const active = (p: string) => (p === "/" ? path === "/" : path === p || path.startsWith(p + "/") || (p === "/category" && path.startsWith("/document")));
  const fixed: { key: string; title: string; href: string; cats?: NavCategory[]; kind?: "doc" | "article" }[] = [
    { key: "home", title: "首页", href: "/" },
    { key: "doc", title: "文档分类", href: "/category", cats: docCategories, kind: "doc" },
    { key: "article", title: "文章资讯", href: "/article", cats: articleCategories, kind: "article" },
  ];
  const [listRef, fit] = useNavFit(fixed.length, navigation.length);
  const overflow = navigation.slice(fit);
  return (
    <nav className="main-nav" aria-label="主导航">
      <ul ref={listRef}>
        {fixed.map((f) => (
          <li key={f.key} className={active(f.href) ? "active" : undefined} onMouseEnter={() => enter(f.key)} onMouseLeave={leave}>
            <a href={f.href}>{f.title}</a>
            {open === f.key ? (f.kind ? <CategoryCard kind={f.kind} cats={f.cats ?? []} /> : <CategoryCard kind="doc" cats={docCategories} />) : null}
          </li>
        ))}
        {navigation.map((n, i) => (
          <li key={n.id} className={n.children.length ? "has-children" : undefined} hidden={i >= fit}>
            <NavLink item={n} />
            {n.children.length ? (
              <ul className="sub-nav">{n.children.map((s) => <li key={s.id}><NavLink item={s} /></li>)}</ul>
            ) : null}
          </li>
        ))}
        {overflow.length ? (
          <li className="has-children nav-more">
            <button type="button" aria-label="更多导航" aria-haspopup="menu">···</button>
            <ul className="sub-nav">
              {/* A parent without its own link is only a group; its children stand for it. */}
              {overflow.flatMap((n) => (n.href ? [n, ...n.children] : n.children)).map((s) => <li key={s.id}><NavLink item={s} /></li>)}
            </ul>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
