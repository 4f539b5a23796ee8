CREATE TABLE `ai_quota` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`questions_per_day` integer,
	`tokens_per_month` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `chat_message` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`topic_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`question` text NOT NULL,
	`search_query` text DEFAULT '' NOT NULL,
	`answer` text DEFAULT '' NOT NULL,
	`references` text DEFAULT '[]' NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`provider` text DEFAULT '' NOT NULL,
	`model` text DEFAULT '' NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`total_tokens` integer DEFAULT 0 NOT NULL,
	`usage_estimated` integer DEFAULT false NOT NULL,
	`first_token_ms` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`topic_id`) REFERENCES `chat_topic`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_message_topic` ON `chat_message` (`topic_id`,`id`);--> statement-breakpoint
CREATE INDEX `chat_message_user` ON `chat_message` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `chat_message_created` ON `chat_message` (`created_at`);--> statement-breakpoint
CREATE INDEX `chat_message_status` ON `chat_message` (`status`);--> statement-breakpoint
CREATE TABLE `chat_topic` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`user_id` integer NOT NULL,
	`category` integer DEFAULT 1 NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_topic_uuid` ON `chat_topic` (`uuid`);--> statement-breakpoint
CREATE INDEX `chat_topic_user` ON `chat_topic` (`user_id`,`category`,`updated_at`);--> statement-breakpoint
CREATE TABLE `chat_topic_document` (
	`topic_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	PRIMARY KEY(`topic_id`, `document_id`),
	FOREIGN KEY (`topic_id`) REFERENCES `chat_topic`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `group` ADD `ai_questions_per_day` integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE `group` ADD `ai_tokens_per_month` integer DEFAULT 1000000 NOT NULL;--> statement-breakpoint
ALTER TABLE `user` ADD `vip_until` integer;