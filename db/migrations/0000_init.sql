CREATE TABLE `credit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`balance` integer NOT NULL,
	`kind` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`ref_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_log_user` ON `credit_log` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `credit_log_kind` ON `credit_log` (`kind`,`ref_id`);--> statement-breakpoint
CREATE TABLE `dynamic` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dynamic_user` ON `dynamic` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `group` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`color` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`is_display` integer DEFAULT false NOT NULL,
	`enable_upload` integer DEFAULT false NOT NULL,
	`enable_document_review` integer DEFAULT true NOT NULL,
	`enable_comment` integer DEFAULT false NOT NULL,
	`enable_comment_approval` integer DEFAULT true NOT NULL,
	`enable_article` integer DEFAULT false NOT NULL,
	`enable_article_approval` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `group_title` ON `group` (`title`);--> statement-breakpoint
CREATE TABLE `group_permission` (
	`group_id` integer NOT NULL,
	`permission_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `permission_id`),
	FOREIGN KEY (`group_id`) REFERENCES `group`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`permission_id`) REFERENCES `permission`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `password_reset` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_token` ON `password_reset` (`token_hash`);--> statement-breakpoint
CREATE TABLE `permission` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`category` text DEFAULT '' NOT NULL,
	`page` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `permission_method_path` ON `permission` (`method`,`path`);--> statement-breakpoint
CREATE TABLE `punishment` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` integer NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`operators` text DEFAULT '' NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`start_time` integer,
	`end_time` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `punishment_user_type` ON `punishment` (`user_id`,`type`,`enable`);--> statement-breakpoint
CREATE TABLE `user_group` (
	`user_id` integer NOT NULL,
	`group_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `group_id`),
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `group`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_group_group` ON `user_group` (`group_id`);--> statement-breakpoint
CREATE TABLE `user_oauth` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`openid` text NOT NULL,
	`unionid` text DEFAULT '' NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`avatar` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_oauth_type_openid` ON `user_oauth` (`type`,`openid`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_oauth_user_type` ON `user_oauth` (`user_id`,`type`);--> statement-breakpoint
CREATE TABLE `verify_code` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`type` integer NOT NULL,
	`code_hash` text NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`provider` text DEFAULT '' NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verify_code_target` ON `verify_code` (`channel`,`target`,`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `verify_code_ip` ON `verify_code` (`ip`,`created_at`);--> statement-breakpoint
CREATE TABLE `config` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`category` text NOT NULL,
	`name` text NOT NULL,
	`value` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `config_category_name` ON `config` (`category`,`name`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 3 NOT NULL,
	`run_after` integer DEFAULT 0 NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`progress` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`result` text DEFAULT '' NOT NULL,
	`finished_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_ready` ON `jobs` (`status`,`run_after`);--> statement-breakpoint
CREATE INDEX `jobs_kind` ON `jobs` (`kind`,`status`);--> statement-breakpoint
CREATE TABLE `advertisement` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`position` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`start_time` integer,
	`end_time` integer,
	`remark` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `advertisement_position` ON `advertisement` (`position`,`enable`);--> statement-breakpoint
CREATE TABLE `attachment` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` text NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`type_id` integer DEFAULT 0 NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`path` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`width` integer DEFAULT 0 NOT NULL,
	`height` integer DEFAULT 0 NOT NULL,
	`ext` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attachment_type` ON `attachment` (`type`,`type_id`);--> statement-breakpoint
CREATE INDEX `attachment_hash` ON `attachment` (`hash`);--> statement-breakpoint
CREATE INDEX `attachment_created` ON `attachment` (`created_at`);--> statement-breakpoint
CREATE TABLE `banner` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`path` text NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `banner_type` ON `banner` (`type`,`enable`,`sort`);--> statement-breakpoint
CREATE TABLE `category` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parent_id` integer DEFAULT 0 NOT NULL,
	`title` text NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`icon` text DEFAULT '' NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`doc_count` integer DEFAULT 0 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`show_description` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `category_type_parent` ON `category` (`type`,`parent_id`,`sort`);--> statement-breakpoint
CREATE TABLE `friendlink` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`link` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `navigation` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parent_id` integer DEFAULT 0 NOT NULL,
	`title` text NOT NULL,
	`href` text DEFAULT '' NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`color` text DEFAULT '' NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `navigation_parent` ON `navigation` (`parent_id`,`sort`);--> statement-breakpoint
CREATE TABLE `session` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_token_hash` ON `session` (`token_hash`);--> statement-breakpoint
CREATE INDEX `session_user` ON `session` (`user_id`);--> statement-breakpoint
CREATE TABLE `sign` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`sign_at` integer NOT NULL,
	`award` integer DEFAULT 0 NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sign_user_day` ON `sign` (`user_id`,`sign_at`);--> statement-breakpoint
CREATE TABLE `user` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password` text NOT NULL,
	`realname` text DEFAULT '' NOT NULL,
	`email` text,
	`mobile` text,
	`avatar` text DEFAULT '' NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`signature` text DEFAULT '' NOT NULL,
	`identity` text DEFAULT '' NOT NULL,
	`is_root` integer DEFAULT false NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`credit_count` integer DEFAULT 0 NOT NULL,
	`doc_count` integer DEFAULT 0 NOT NULL,
	`article_count` integer DEFAULT 0 NOT NULL,
	`favorite_count` integer DEFAULT 0 NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`follow_count` integer DEFAULT 0 NOT NULL,
	`fans_count` integer DEFAULT 0 NOT NULL,
	`login_at` integer,
	`last_login_ip` text DEFAULT '' NOT NULL,
	`register_ip` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "user_credit_non_negative" CHECK("user"."credit_count" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_username` ON `user` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_email` ON `user` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_mobile` ON `user` (`mobile`);--> statement-breakpoint
CREATE INDEX `user_created_at` ON `user` (`created_at`);