-- Which payment paid its order. A site's orders table may have no trade_no column (paynotify then
-- writes only the status), so the booking records it on its own row: the UPDATE that marks the
-- order paid sets moved_order on the payment it is booking, in the same statement. A refund moves
-- only the order its trade paid, and a second payment names the trade that paid before it.
-- Rows booked before this migration were booked on tables with trade columns, which still decide
-- for them; an older instance during a rolling upgrade inserts FALSE, which those columns overrule too.
ALTER TABLE payments
  ADD COLUMN moved_order BOOLEAN NOT NULL DEFAULT FALSE; -- last: added in place (MySQL 8.0 INSTANT), no rebuild
