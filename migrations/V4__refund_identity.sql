-- A refund is identified by (channel, refund_scope, refund_no). Alipay's out_biz_no is unique only
-- within its trade (同一笔交易多次退款需要保证唯一; many sites number refunds "1", "2", ...), so there
-- refund_scope is the trade; WeChat's refund_id is unique on the whole platform: refund_scope ''.
-- Existing rows keep their identity: Alipay's take their trade as scope.
ALTER TABLE refunds ADD COLUMN refund_scope VARCHAR(64) COLLATE utf8mb4_bin NOT NULL DEFAULT '' AFTER channel;
UPDATE refunds SET refund_scope = trade_no WHERE channel = 'alipay';
-- No default: an instance still running the old code during an upgrade cannot insert an Alipay refund
-- without its trade (strict mode refuses it; the platform retries on an upgraded instance).
ALTER TABLE refunds DROP KEY uk_refund_no, ADD UNIQUE KEY uk_refund_no (channel, refund_scope, refund_no),
  ALTER COLUMN refund_scope DROP DEFAULT;
-- Open refund_without_payment findings of Alipay take the new form of their dedupe key (with the trade),
-- so that the hourly check does not record them again.
UPDATE anomalies SET dedupe_key = CONCAT('refund_without_payment:alipay:', trade_no, ':', SUBSTRING(dedupe_key, 31))
 WHERE kind = 'refund_without_payment' AND channel = 'alipay' AND dedupe_key LIKE 'refund_without_payment:alipay:%';
