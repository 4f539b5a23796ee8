CREATE TABLE `order` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_no` text NOT NULL,
	`user_id` integer NOT NULL,
	`order_type` integer NOT NULL,
	`product_id` integer DEFAULT 0 NOT NULL,
	`product_title` text DEFAULT '' NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`discount` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`credit_price` integer DEFAULT 0 NOT NULL,
	`vip_months` integer DEFAULT 0 NOT NULL,
	`payment_type` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`transaction_id` text DEFAULT '' NOT NULL,
	`paid_at` integer,
	`closed_at` integer,
	`expire_at` integer NOT NULL,
	`queried_at` integer DEFAULT 0 NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "order_amount_non_negative" CHECK("order"."amount" >= 0 AND "order"."discount" >= 0 AND "order"."credits" >= 0 AND "order"."credit_price" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_no` ON `order` (`order_no`);--> statement-breakpoint
CREATE INDEX `order_user` ON `order` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `order_status_expire` ON `order` (`status`,`expire_at`);--> statement-breakpoint
CREATE INDEX `order_product` ON `order` (`order_type`,`product_id`,`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `order_created` ON `order` (`created_at`);--> statement-breakpoint
CREATE TABLE `payment_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_no` text DEFAULT '' NOT NULL,
	`payment_type` integer DEFAULT 0 NOT NULL,
	`event` text NOT NULL,
	`ok` integer DEFAULT true NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_log_order` ON `payment_log` (`order_no`,`created_at`);--> statement-breakpoint
CREATE INDEX `payment_log_created` ON `payment_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `vip_plan` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`months` integer NOT NULL,
	`price` integer NOT NULL,
	`original_price` integer DEFAULT 0 NOT NULL,
	`benefits` text DEFAULT '' NOT NULL,
	`enable` integer DEFAULT true NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
-- Monthly, quarterly and yearly plans out of the box (prices in fen); administrators edit them in /admin/user/vip.
INSERT INTO `vip_plan` (`title`, `months`, `price`, `original_price`, `benefits`, `enable`, `sort`) VALUES
  ('月度 VIP', 1, 1500, 2000, '付费文档免费下载
每日下载次数提升
AI 提问额度提升
全站无广告', 1, 3),
  ('季度 VIP', 3, 4000, 6000, '付费文档免费下载
每日下载次数提升
AI 提问额度提升
全站无广告', 1, 2),
  ('年度 VIP', 12, 12800, 24000, '付费文档免费下载
每日下载次数提升
AI 提问额度提升
全站无广告
专属 VIP 标识', 1, 1);
--> statement-breakpoint
-- The VIP AI quota moves from the llm group to the vip group, where everything VIP grants is set.
UPDATE `config` SET `category` = 'vip', `name` = 'ai_questions_per_day' WHERE `category` = 'llm' AND `name` = 'vip_questions_per_day';
--> statement-breakpoint
UPDATE `config` SET `category` = 'vip', `name` = 'ai_tokens_per_month' WHERE `category` = 'llm' AND `name` = 'vip_tokens_per_month';
