import ReaderFavoriteList, { type FavoriteKind, type FavoriteRow } from "#islands/reader/ReaderFavoriteList.tsx";
import { articleFavoriteTotal, listArticleFavorites } from "#src/features/articles/favorites.ts";
import { formatBytes, formatDateTime } from "#src/lib/format.ts";
import { Island } from "#src/views/Island.tsx";
import { favoriteTotal, listFavorites } from "../favorites.ts";

const SIZE = 20;

function rowsOf(kind: FavoriteKind, userId: number, page: number): { total: number; rows: FavoriteRow[] } {
  if (kind === "article") {
    const { total, favorite } = listArticleFavorites(userId, page, SIZE);
    return {
      total,
      rows: favorite.map((f) => ({
        id: f.id, target: f.article_id, title: f.title, href: `/article/${f.identifier}`, badge: "文章", visible: f.visible,
        meta: `${f.view_count} 浏览 · ${f.comment_count} 评论 · 收藏于 ${formatDateTime(f.created_at)}`,
      })),
    };
  }
  const { total, favorite } = listFavorites(userId, page, SIZE);
  return {
    total,
    rows: favorite.map((f) => ({
      id: f.id, target: f.document_id, title: f.title, href: `/document/${f.uuid}`, badge: f.ext.replace(/^\./, "").toUpperCase(), visible: f.visible,
      meta: `${f.pages} 页 · ${formatBytes(f.size)} · ${f.view_count} 浏览 · 收藏于 ${formatDateTime(f.created_at)}`,
    })),
  };
}

/** The body of /me/favorite: the signed-in user's favourites of one kind (?type=article), newest first. */
export function MeFavorites({ userId, page: raw, type }: { userId: number; page: string | undefined; type?: string }) {
  const page = /^\d{1,5}$/.test(raw ?? "") && Number(raw) >= 1 ? Number(raw) : 1;
  const kind: FavoriteKind = type === "article" ? "article" : "document";
  const { total, rows } = rowsOf(kind, userId, page);
  const otherTotal = kind === "article" ? favoriteTotal(userId) : articleFavoriteTotal(userId);
  return <Island name="ReaderFavoriteList" component={ReaderFavoriteList} props={{ kind, rows, total, page, size: SIZE, otherTotal }} />;
}
