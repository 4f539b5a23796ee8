ALTER TABLE `document` ADD `rendered_pages` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Until now conversion rendered page images for the preview only: that is what is on disk.
UPDATE `document` SET `rendered_pages` = `preview`;
