-- Languages a document can be tagged with at upload; admins enable, disable or add more.
INSERT INTO `language` (`code`, `name`, `enable`, `sort`) VALUES ('zh', '中文', 1, 0);
--> statement-breakpoint
INSERT INTO `language` (`code`, `name`, `enable`, `sort`) VALUES ('en', 'English', 1, 1);
--> statement-breakpoint
INSERT INTO `language` (`code`, `name`, `enable`, `sort`) VALUES ('zh-TW', '繁體中文', 1, 2);
--> statement-breakpoint
INSERT INTO `language` (`code`, `name`, `enable`, `sort`) VALUES ('ja', '日本語', 0, 3);
--> statement-breakpoint
INSERT INTO `language` (`code`, `name`, `enable`, `sort`) VALUES ('ko', '한국어', 0, 4);
