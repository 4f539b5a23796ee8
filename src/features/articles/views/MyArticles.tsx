import MyArticleList, { type MyArticle } from "#islands/article/MyArticleList.tsx";
import { Island } from "#src/views/Island.tsx";
import { listArticles } from "../service.ts";

const PAGE_SIZE = 20;

/** Body of /me/article: the user's articles in every status (not the recycle bin). */
export function MyArticles({ userId }: { userId: number }) {
  const first = listArticles({ page: 1, size: PAGE_SIZE, status: [], user_id: userId }, "owner");
  return <Island name="MyArticleList" component={MyArticleList} props={{ userId, pageSize: PAGE_SIZE, initial: { total: first.total, rows: first.article as unknown as MyArticle[] } }} />;
}
