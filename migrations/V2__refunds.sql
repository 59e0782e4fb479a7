-- Refunds, booked exactly once and in any order relative to their payment.
-- A refund whose payment is not booked yet waits as 'pending' (待对账); booking the payment settles
-- it in the same transaction. 'cumulative' marks platforms (Alipay) whose refund amount is the total
-- refunded on the trade so far: the trade's refunded total is then the largest such amount, not a sum.
CREATE TABLE refunds (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  channel       VARCHAR(16)  NOT NULL,
  refund_no     VARCHAR(64)  COLLATE utf8mb4_bin NOT NULL,
  trade_no      VARCHAR(64)  COLLATE utf8mb4_bin NOT NULL,
  order_no      VARCHAR(64)  COLLATE utf8mb4_bin NULL,
  amount_cents  BIGINT       NOT NULL,
  cumulative    BOOLEAN      NOT NULL DEFAULT FALSE,
  status        VARCHAR(16)  NOT NULL DEFAULT 'pending',
  created_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_refund_no (channel, refund_no),
  KEY idx_refunds_trade (channel, trade_no, status),
  KEY idx_refunds_pending (status, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
