-- An Alipay refund's key is alipay:refund:<trade_no>:<out_biz_no>, each id up to 64 characters:
-- up to 143 characters, more than the 128 the keys had.
ALTER TABLE idempotent_keys MODIFY idem_key VARCHAR(192) COLLATE utf8mb4_bin NOT NULL;
ALTER TABLE notify_log MODIFY idem_key VARCHAR(192) COLLATE utf8mb4_bin NULL;
