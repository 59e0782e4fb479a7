-- Every platform's walk down its undelivered events (recovery.MissedEvents, recovery.MissedEventsCursor): Stripe's
-- events, and Paddle's undelivered notifications, each platform's walk in its own row, keyed by the platform's code.
-- Stripe's position (stripe_events_cursor, V17) is copied as its row. stripe_events_cursor itself is left as it was,
-- no longer written: an older release started beside this one, or after it, still reads it (a walk from an older
-- position reads events again, booked as the duplicates they are); a later release drops it.
CREATE TABLE missed_events_cursor (
  platform   VARCHAR(16) NOT NULL PRIMARY KEY,  -- stripe, paddle
  walk_from  BIGINT      NOT NULL,
  walk_below BIGINT      NOT NULL,
  walk_to    BIGINT      NOT NULL,
  version    BIGINT      NOT NULL,
  updated_at DATETIME(3) NOT NULL               -- UTC, for whoever looks
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO missed_events_cursor (platform, walk_from, walk_below, walk_to, version, updated_at)
  SELECT 'stripe', walk_from, walk_below, walk_to, version, updated_at FROM stripe_events_cursor WHERE id = 1;
