import { SuggestInput } from "./SearchSuggest.tsx";

export interface HeaderSearchProps { path: string; wd: string; type: number }

/** Placeholder and type follow the section: articles under /article, documents elsewhere. */
export default function HeaderSearch({ path, wd, type }: HeaderSearchProps) {
  const articles = path.startsWith("/article") || (path === "/search" && type === 1);
  return (
    <form className="header-search" action="/search" method="get" role="search">
      <input type="hidden" name="type" value={articles ? 1 : 0} />
      <SuggestInput id="header-suggest" type={articles ? 1 : 0} initial={wd} placeholder={articles ? "搜索文章" : "搜索文档"} />
      <button type="submit" aria-label="搜索">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.4-5.4-5.39A8 8 0 1 1 10 2m0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12" /></svg>
      </button>
    </form>
  );
}
