-- Full-text index of documents (features/search). One row per page: rowid = document_id * 2^20 + page.
-- Columns hold jieba search-mode words joined by spaces (folded: half-width, lower case, simplified),
-- so unicode61 only splits on the spaces. Contentless: the text itself lives in document and
-- document_page; contentless_delete lets a document's rows be replaced in the data's transaction.
CREATE VIRTUAL TABLE `search_fts` USING fts5(
	title, keywords, description, body,
	content='', contentless_delete=1,
	tokenize='unicode61 remove_diacritics 0'
);
--> statement-breakpoint
-- What the index was built with (dictionary + folding fingerprint) and rebuild bookkeeping.
CREATE TABLE `search_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
