-- What else a platform said of a payment, beside the booking's fields: a small JSON object (a USDT payment's
-- crypto amount, wallet and chain transaction; a V免签 payment's reallyPrice; 虎皮椒's upstream transaction_id).
-- NULL for the platforms whose notification says nothing more. Read by people, never by the booking.
ALTER TABLE payments
  ADD COLUMN detail VARCHAR(500) NULL; -- last and nullable: added in place (MySQL 8.0 INSTANT), no rebuild
