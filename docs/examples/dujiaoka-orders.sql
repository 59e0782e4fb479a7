-- dujiaoka (独角数卡)'s orders table, as database/sql/install.sql of github.com/assimon/dujiaoka
-- (commit 9f5467a) creates it. Status: 1 待支付, 2 待处理, 3 处理中, 4 已完成, 5 处理失败, 6 异常, -1 过期.
-- Used by scripts/try-dujiaoka.sh and by the tests (SiteTable), so that both meet the real shape.
CREATE TABLE orders (
  `id` bigint NOT NULL AUTO_INCREMENT,
  `order_sn` varchar(150) CHARACTER SET utf8 COLLATE utf8_unicode_ci NOT NULL,
  `goods_id` int NOT NULL,
  `coupon_id` int DEFAULT '0',
  `title` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL,
  `type` tinyint(1) NOT NULL DEFAULT '1',
  `goods_price` decimal(10,2) NOT NULL DEFAULT '0.00',
  `buy_amount` int NOT NULL DEFAULT '1',
  `coupon_discount_price` decimal(10,2) NOT NULL DEFAULT '0.00',
  `wholesale_discount_price` decimal(10,2) NOT NULL DEFAULT '0.00',
  `total_price` decimal(10,2) NOT NULL DEFAULT '0.00',
  `actual_price` decimal(10,2) NOT NULL DEFAULT '0.00',
  `search_pwd` varchar(200) CHARACTER SET utf8 COLLATE utf8_unicode_ci DEFAULT '',
  `email` varchar(200) CHARACTER SET utf8 COLLATE utf8_unicode_ci NOT NULL,
  `info` text CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci,
  `pay_id` int DEFAULT NULL,
  `buy_ip` varchar(50) CHARACTER SET utf8 COLLATE utf8_unicode_ci NOT NULL,
  `trade_no` varchar(200) CHARACTER SET utf8 COLLATE utf8_unicode_ci DEFAULT '',
  `status` tinyint(1) NOT NULL DEFAULT '1',
  `coupon_ret_back` tinyint(1) NOT NULL DEFAULT '0',
  `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL,
  `deleted_at` timestamp NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `idx_order_sn` (`order_sn`) USING BTREE,
  KEY `idx_goods_id` (`goods_id`) USING BTREE,
  KEY `idex_email` (`email`) USING BTREE
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_unicode_ci;
