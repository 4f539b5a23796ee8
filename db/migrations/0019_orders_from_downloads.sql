-- Credit downloads are purchases (issue 10): every past paid download becomes a paid document order
-- (type 1, paid with credits: payment_type 5, status 2), so a document bought before orders existed
-- is the buyer's for good, exactly like one bought now. Order numbers: the download's Beijing time,
-- four random digits and the download id (unique; these orders never reach a gateway).
INSERT INTO `order` (`order_no`, `user_id`, `order_type`, `product_id`, `product_title`, `quantity`, `amount`, `discount`, `credits`, `credit_price`,
  `vip_months`, `payment_type`, `status`, `transaction_id`, `paid_at`, `closed_at`, `expire_at`, `queried_at`, `ip`, `remark`, `created_at`, `updated_at`)
SELECT strftime('%Y%m%d%H%M%S', dl.`created_at` / 1000, 'unixepoch', '+8 hours') || printf('%04d', abs(random() % 10000)) || printf('%08d', dl.`id`),
  dl.`user_id`, 1, dl.`document_id`, substr(coalesce(d.`title`, ''), 1, 255), 1, 0, 0, 0, dl.`price`,
  0, 5, 2, '', dl.`created_at`, NULL, dl.`created_at`, 0, dl.`ip`, '积分下载（历史记录）', dl.`created_at`, dl.`created_at`
FROM `download` dl LEFT JOIN `document` d ON d.`id` = dl.`document_id`
WHERE dl.`price` > 0 AND dl.`user_id` > 0
ORDER BY dl.`id`;
--> statement-breakpoint
INSERT INTO `payment_log` (`order_no`, `payment_type`, `event`, `ok`, `message`, `detail`, `ip`, `created_at`)
SELECT `order_no`, 5, 'paid', 1, '由历史积分下载生成的订单', '', `ip`, `created_at` FROM `order` WHERE `remark` = '积分下载（历史记录）';
