CREATE INDEX `document_visible_downloads` ON `document` (`status`,`deleted_at`,`download_count`);--> statement-breakpoint
CREATE INDEX `document_visible_views` ON `document` (`status`,`deleted_at`,`view_count`);--> statement-breakpoint
CREATE INDEX `document_visible_score` ON `document` (`status`,`deleted_at`,`score`);