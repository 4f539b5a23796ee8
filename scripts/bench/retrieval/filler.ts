// Background documents so word statistics look like a library's, not eleven documents' (text from
// zipfText.ts). They answer no question; they only make common words common and add keyword
// matches that are noise (as in scripts/bench/chat.ts).
import { getSqlite } from "#db/client.ts";
import { indexDocument } from "#src/features/search/indexer.ts";
import { zipfText } from "../zipfText.ts";

export function addFiller(count: number, ownerId: number, pages = 3) {
  if (count <= 0) return;
  const { rnd, word, pageText } = zipfText();
  const db = getSqlite();
  const doc = db.query<{ id: number }, [string, string, number, string, number, number]>(
    "INSERT INTO document (uuid, title, user_id, hash, ext, pages, preview, status) VALUES (?, ?, ?, ?, 'pdf', ?, ?, 2) RETURNING id");
  const page = db.query("INSERT INTO document_page (document_id, page, text) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const title = `${word()}${word()}${["教程", "讲义", "手册", "笔记", "概论"][rnd(5)]}`;
      const id = doc.get(crypto.randomUUID().replaceAll("-", ""), title, ownerId, crypto.randomUUID().replaceAll("-", ""), pages, pages)!.id;
      for (let p = 1; p <= pages; p++) page.run(id, p, pageText());
      indexDocument(id);
    }
  })();
}
