CREATE TABLE `banned_hash` (
	`hash` text PRIMARY KEY NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `document` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`title` text NOT NULL,
	`keywords` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`user_id` integer NOT NULL,
	`category_id` integer DEFAULT 0 NOT NULL,
	`attachment_id` integer DEFAULT 0 NOT NULL,
	`hash` text NOT NULL,
	`ext` text NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`preview` integer DEFAULT 0 NOT NULL,
	`width` integer DEFAULT 0 NOT NULL,
	`height` integer DEFAULT 0 NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`language` text DEFAULT 'zh' NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`convert_error` text DEFAULT '' NOT NULL,
	`is_recommend` integer DEFAULT false NOT NULL,
	`recommend_at` integer,
	`view_count` integer DEFAULT 0 NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`favorite_count` integer DEFAULT 0 NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`score` integer DEFAULT 0 NOT NULL,
	`score_count` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer,
	`deleted_user_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_uuid` ON `document` (`uuid`);--> statement-breakpoint
CREATE INDEX `document_user` ON `document` (`user_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `document_status` ON `document` (`status`,`deleted_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `document_hash` ON `document` (`hash`);--> statement-breakpoint
CREATE INDEX `document_recommend` ON `document` (`is_recommend`,`recommend_at`);--> statement-breakpoint
CREATE INDEX `document_category_leaf` ON `document` (`category_id`);--> statement-breakpoint
CREATE TABLE `document_category` (
	`document_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`document_id`, `category_id`),
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_category_category` ON `document_category` (`category_id`);--> statement-breakpoint
CREATE TABLE `document_page` (
	`document_id` integer NOT NULL,
	`page` integer NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`document_id`, `page`),
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `document_score` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`score` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_score_user` ON `document_score` (`document_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `download` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`document_id` integer NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `download_user` ON `download` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `download_document` ON `download` (`document_id`);--> statement-breakpoint
CREATE INDEX `download_ip` ON `download` (`ip`,`created_at`);--> statement-breakpoint
CREATE TABLE `favorite` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `favorite_user_document` ON `favorite` (`user_id`,`document_id`);--> statement-breakpoint
CREATE INDEX `favorite_document` ON `favorite` (`document_id`);--> statement-breakpoint
CREATE TABLE `language` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `language_code` ON `language` (`code`);--> statement-breakpoint
CREATE TABLE `report` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`reason` integer NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_user_document` ON `report` (`user_id`,`document_id`);--> statement-breakpoint
CREATE INDEX `report_status` ON `report` (`status`);