-- A refund that finds no payment now holds the payment's idempotency key (<channel>:pay:<trade>) with the
-- fingerprint 'refunds-waiting': the payment's booking learns of its refunds from the key insert it runs anyway,
-- and settles them (SqlQueries.REFUNDS_WAITING). Refunds left waiting by a release before this one hold no key:
-- they get theirs here, unless their payment is booked (the hourly check settles those) or its key is there.
INSERT INTO idempotent_keys (idem_key, fingerprint)
SELECT DISTINCT CONCAT(r.channel, ':pay:', r.trade_no), 'refunds-waiting'
FROM refunds r
WHERE r.status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.channel = r.channel AND p.trade_no = r.trade_no)
  AND NOT EXISTS (SELECT 1 FROM idempotent_keys k WHERE k.idem_key = CONCAT(r.channel, ':pay:', r.trade_no));
