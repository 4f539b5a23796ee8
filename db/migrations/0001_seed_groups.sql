-- The two groups every site starts with (spec §6 / accounts issue): administrators and the default group for new users.
INSERT INTO `group` (`id`, `title`, `color`, `description`, `sort`, `is_default`, `is_display`, `enable_upload`, `enable_document_review`, `enable_comment`, `enable_comment_approval`, `enable_article`, `enable_article_approval`)
VALUES (1, '超级管理员', '#ff4d4f', '拥有全部权限', 0, 0, 1, 1, 0, 1, 0, 1, 0);
--> statement-breakpoint
INSERT INTO `group` (`id`, `title`, `color`, `description`, `sort`, `is_default`, `is_display`, `enable_upload`, `enable_document_review`, `enable_comment`, `enable_comment_approval`, `enable_article`, `enable_article_approval`)
VALUES (2, '普通用户', '', '新注册用户默认所在的分组', 1, 1, 0, 1, 1, 1, 1, 1, 1);
