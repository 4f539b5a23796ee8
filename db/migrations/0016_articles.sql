CREATE TABLE `article` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`identifier` text NOT NULL,
	`title` text NOT NULL,
	`keywords` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`user_id` integer NOT NULL,
	`category_id` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`reject_reason` text DEFAULT '' NOT NULL,
	`is_recommend` integer DEFAULT false NOT NULL,
	`recommend_at` integer,
	`view_count` integer DEFAULT 0 NOT NULL,
	`favorite_count` integer DEFAULT 0 NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`deleted_at` integer,
	`deleted_user_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `article_identifier` ON `article` (`identifier`);--> statement-breakpoint
CREATE INDEX `article_user` ON `article` (`user_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `article_status` ON `article` (`status`,`deleted_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `article_category` ON `article` (`category_id`);--> statement-breakpoint
CREATE INDEX `article_recommend` ON `article` (`is_recommend`,`recommend_at`);--> statement-breakpoint
CREATE INDEX `article_visible_views` ON `article` (`status`,`deleted_at`,`view_count`);--> statement-breakpoint
CREATE TABLE `article_favorite` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`article_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`article_id`) REFERENCES `article`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `article_favorite_user_article` ON `article_favorite` (`user_id`,`article_id`);--> statement-breakpoint
CREATE INDEX `article_favorite_article` ON `article_favorite` (`article_id`);