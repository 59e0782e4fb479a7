-- Reconciliation reads payments by the bill's window, and refunds by their refund time.
ALTER TABLE payments ADD KEY idx_payments_paid (channel, paid_at);
ALTER TABLE refunds ADD COLUMN refunded_at DATETIME(3) NULL AFTER status;
ALTER TABLE refunds ADD KEY idx_refunds_refunded (channel, refunded_at);
