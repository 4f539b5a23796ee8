CREATE TABLE `chunk` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer NOT NULL,
	`page` integer NOT NULL,
	`seq` integer NOT NULL,
	`start` integer DEFAULT 0 NOT NULL,
	`text` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chunk_document_page_seq` ON `chunk` (`document_id`,`page`,`seq`);--> statement-breakpoint
CREATE TABLE `document_embedding` (
	`space_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`chunks` integer DEFAULT 0 NOT NULL,
	`ms` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`space_id`, `document_id`),
	FOREIGN KEY (`space_id`) REFERENCES `embedding_space`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_embedding_status` ON `document_embedding` (`space_id`,`status`);--> statement-breakpoint
CREATE TABLE `embedding_space` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`model_key` text NOT NULL,
	`dimensions` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`activated_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `embedding_space_status` ON `embedding_space` (`status`);--> statement-breakpoint
CREATE TABLE `ocr_document` (
	`document_id` integer PRIMARY KEY NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`engine` text DEFAULT '' NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`confidence` real DEFAULT 0 NOT NULL,
	`ms` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ocr_document_status` ON `ocr_document` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `ocr_page` (
	`document_id` integer NOT NULL,
	`page` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`engine` text DEFAULT '' NOT NULL,
	`confidence` real DEFAULT 0 NOT NULL,
	`ms` integer DEFAULT 0 NOT NULL,
	`chars` integer DEFAULT 0 NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`document_id`, `page`),
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade
);
