CREATE TABLE `spider_document` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`spider_url_id` integer NOT NULL,
	`url` text NOT NULL,
	`referer` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`attachment_id` integer DEFAULT 0 NOT NULL,
	`hash` text DEFAULT '' NOT NULL,
	`ext` text DEFAULT '' NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`document_id` integer DEFAULT 0 NOT NULL,
	`duplicate` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spider_url_id`) REFERENCES `spider_url`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `spider_document_url` ON `spider_document` (`spider_url_id`,`url`);--> statement-breakpoint
CREATE INDEX `spider_document_status` ON `spider_document` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `spider_document_hash` ON `spider_document` (`hash`);--> statement-breakpoint
CREATE TABLE `spider_url` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`category_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`depth` integer DEFAULT 0 NOT NULL,
	`same_site` integer DEFAULT true NOT NULL,
	`exts` text DEFAULT '' NOT NULL,
	`max_size` integer DEFAULT 50 NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`found` integer DEFAULT 0 NOT NULL,
	`created_by` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spider_url_status` ON `spider_url` (`status`,`id`);