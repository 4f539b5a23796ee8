PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_report` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer,
	`article_id` integer,
	`user_id` integer NOT NULL,
	`reason` integer NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 2 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `document`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`article_id`) REFERENCES `article`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "report_target" CHECK((document_id IS NULL) <> (article_id IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_report`("id", "document_id", "article_id", "user_id", "reason", "remark", "status", "created_at", "updated_at") SELECT "id", "document_id", "article_id", "user_id", "reason", "remark", "status", "created_at", "updated_at" FROM `report`;--> statement-breakpoint
DROP TABLE `report`;--> statement-breakpoint
ALTER TABLE `__new_report` RENAME TO `report`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `report_user_document` ON `report` (`user_id`,`document_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `report_user_article` ON `report` (`user_id`,`article_id`);--> statement-breakpoint
CREATE INDEX `report_status` ON `report` (`status`);