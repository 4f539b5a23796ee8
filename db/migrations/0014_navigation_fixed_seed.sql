-- Custom migration.
-- 1. The three built-in header entries (spec §3 navigation `fixed`), stored so an admin can rename,
--    hide and reorder them; negative sorts keep them ahead of entries made before this migration.
INSERT INTO `navigation` (`title`, `href`, `sort`, `enable`, `fixed`) VALUES ('首页', '/', -30, 1, 'home');
--> statement-breakpoint
INSERT INTO `navigation` (`title`, `href`, `sort`, `enable`, `fixed`) VALUES ('文档分类', '/category', -20, 1, 'category');
--> statement-breakpoint
INSERT INTO `navigation` (`title`, `href`, `sort`, `enable`, `fixed`) VALUES ('文章资讯', '/article', -10, 1, 'article');
--> statement-breakpoint
-- 2. Reports move to the generic statuses of spec §4: old 0 pending → 2 under review,
--    old 1 handled → 0 normal (4 ignored is new).
UPDATE `report` SET `status` = CASE `status` WHEN 0 THEN 2 WHEN 1 THEN 0 ELSE `status` END;
