CREATE TABLE `comment` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`document_id` integer,
	`article_id` integer,
	`parent_id` integer,
	`reply_user_id` integer DEFAULT 0 NOT NULL,
	`content` text NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`reply_count` integer DEFAULT 0 NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`article_id`) REFERENCES `article`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `comment`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "comment_target" CHECK((document_id IS NULL) <> (article_id IS NULL))
);
--> statement-breakpoint
CREATE INDEX `comment_document` ON `comment` (`document_id`,`parent_id`,`status`);--> statement-breakpoint
CREATE INDEX `comment_article` ON `comment` (`article_id`,`parent_id`,`status`);--> statement-breakpoint
CREATE INDEX `comment_parent` ON `comment` (`parent_id`,`status`);--> statement-breakpoint
CREATE INDEX `comment_user` ON `comment` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comment_status` ON `comment` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `report` ADD `article_id` integer REFERENCES article(id);--> statement-breakpoint
CREATE UNIQUE INDEX `report_user_article` ON `report` (`user_id`,`article_id`);--> statement-breakpoint
-- The comment captcha switch moves from the security group to the comment group, beside the other comment settings.
UPDATE `config` SET `category` = 'comment', `name` = 'enable_captcha' WHERE `category` = 'security' AND `name` = 'enable_captcha_comment';
