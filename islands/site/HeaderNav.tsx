import { useEffect, useRef, useState } from "react";
import { useNavFit } from "./navFit.ts";

export interface NavCategory { id: number; title: string; children: { id: number; title: string }[] }
export interface NavEntry { id: number; title: string; href: string; target: string; color: string }
/** A stored top-level entry; `fixed` is "" or the built-in kind: "home" | "category" | "article". */
export type NavTop = NavEntry & { fixed: string; children: NavEntry[] };
export interface HeaderNavProps {
  path: string;
  docCategories: NavCategory[];
  articleCategories: NavCategory[];
  /** the enabled entries in the admin's order, fixed ones included */
  navigation: NavTop[];
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
  // Fixed entries keep their category card; the home entry's card shows the document categories.
  const cardOf = (n: NavTop) => (n.fixed === "article" ? { kind: "article" as const, cats: articleCategories } : n.fixed ? { kind: "doc" as const, cats: docCategories } : null);
  const [listRef, fit] = useNavFit(0, navigation.length);
  const overflow = navigation.slice(fit);
  return (
    <nav className="main-nav" aria-label="主导航">
      <ul ref={listRef}>
        {navigation.map((n, i) => {
          const card = cardOf(n);
          if (card) {
            const key = String(n.id);
            return (
              <li key={n.id} className={active(n.href) ? "active" : undefined} data-fixed={n.fixed} hidden={i >= fit} onMouseEnter={() => enter(key)} onMouseLeave={leave}>
                <NavLink item={n} />
                {open === key ? <CategoryCard kind={card.kind} cats={card.cats} /> : null}
              </li>
            );
          }
          return (
            <li key={n.id} className={n.children.length ? "has-children" : undefined} hidden={i >= fit}>
              <NavLink item={n} />
              {n.children.length ? (
                <ul className="sub-nav">{n.children.map((s) => <li key={s.id}><NavLink item={s} /></li>)}</ul>
              ) : null}
            </li>
          );
        })}
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
