-- Reconciliation reads payments by the bill's window (covering: the trade ids come from the index),
-- and refunds by their refund time.
ALTER TABLE payments ADD KEY idx_payments_paid (channel, paid_at, trade_no);
ALTER TABLE refunds ADD COLUMN refunded_at DATETIME(3) NULL AFTER status;
ALTER TABLE refunds ADD KEY idx_refunds_refunded (channel, refunded_at, refund_no);
