-- A refund is identified by (channel, refund_scope, refund_no). Alipay's out_biz_no is unique only
-- within its trade (同一笔交易多次退款需要保证唯一; many sites number refunds "1", "2", ...), so there
-- refund_scope is the trade; WeChat's refund_id is unique on the whole platform: refund_scope ''.
-- Existing rows keep their identity: Alipay's take their trade as scope.
ALTER TABLE refunds ADD COLUMN refund_scope VARCHAR(64) COLLATE utf8mb4_bin NOT NULL DEFAULT '' AFTER channel;
UPDATE refunds SET refund_scope = trade_no WHERE channel = 'alipay';
ALTER TABLE refunds DROP KEY uk_refund_no, ADD UNIQUE KEY uk_refund_no (channel, refund_scope, refund_no);
