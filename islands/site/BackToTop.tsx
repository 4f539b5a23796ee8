export default function BackToTop() {
  return (
    <button type="button" className="rightbar-item" title="返回顶部" aria-label="返回顶部" onClick={() => scrollTo({ top: 0, behavior: "smooth" })}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M4 4h16v2H4zm8 3 6 6h-4v7h-4v-7H6z" /></svg>
      <span>顶部</span>
    </button>
  );
}
