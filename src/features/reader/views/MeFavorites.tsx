import ReaderFavoriteList from "#islands/reader/ReaderFavoriteList.tsx";
import { Island } from "#src/views/Island.tsx";
import { listFavorites } from "../favorites.ts";

const SIZE = 20;

/** The body of /me/favorite: the signed-in user's favourites, newest first. */
export function MeFavorites({ userId, page: raw }: { userId: number; page: string | undefined }) {
  const page = /^\d{1,5}$/.test(raw ?? "") && Number(raw) >= 1 ? Number(raw) : 1;
  const { total, favorite } = listFavorites(userId, page, SIZE);
  return <Island name="ReaderFavoriteList" component={ReaderFavoriteList} props={{ rows: favorite, total, page, size: SIZE }} />;
}
