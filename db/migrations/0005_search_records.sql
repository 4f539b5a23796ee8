CREATE TABLE `search_record` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`keywords` text NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`page` integer DEFAULT 1 NOT NULL,
	`spend_ms` integer DEFAULT 0 NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_record_created` ON `search_record` (`created_at`);--> statement-breakpoint
CREATE INDEX `search_record_keywords` ON `search_record` (`keywords`,`created_at`);--> statement-breakpoint
CREATE INDEX `search_record_total` ON `search_record` (`total`,`created_at`);