-- Per-word row counts of the full-text index, read by AI retrieval to leave out words so common
-- that scoring them costs much and ranks nothing (fts5vocab reads the index itself: no storage).
CREATE VIRTUAL TABLE IF NOT EXISTS `search_vocab` USING fts5vocab('search_fts', 'row');
