-- stripe_events_cursor (V17) becomes every platform's: Paddle's undelivered notifications are walked as Stripe's
-- events are (recovery.MissedEvents, recovery.MissedEventsCursor), each platform's walk in its own row, keyed by the
-- platform's code. Stripe's row (id 1) keeps its place as 'stripe'.
RENAME TABLE stripe_events_cursor TO missed_events_cursor;
ALTER TABLE missed_events_cursor ADD COLUMN platform VARCHAR(16) NOT NULL DEFAULT 'stripe' FIRST;
ALTER TABLE missed_events_cursor DROP PRIMARY KEY, DROP COLUMN id, ADD PRIMARY KEY (platform);
ALTER TABLE missed_events_cursor ALTER COLUMN platform DROP DEFAULT;
