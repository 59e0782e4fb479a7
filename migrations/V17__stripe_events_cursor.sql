-- Where recovery's reading of Stripe's undelivered events (GET /v1/events?delivery_success=false, read by
-- recovery.MissedStripeEvents) has got to, one row that every instance reads. Stripe lists newest first, so the
-- events are read in walks down a window of their `created` (Unix seconds, Stripe's clock): a few pages a
-- sweep, the next sweep going on below where the last one stopped, so that an old missed event is reached
-- however many newer ones stay undelivered (another endpoint's that always fails). A walk covers
-- [walk_from, walk_to); every event in [walk_below, walk_to) has been taken, and every one before walk_from (up
-- to recovery.max_age back) by an earlier walk; the next walk starts at walk_to. A sweep writes over the version
-- it read only, so two instances never undo each other's progress. The row is added by the first sweep.
CREATE TABLE stripe_events_cursor (
  id         TINYINT     NOT NULL PRIMARY KEY,  -- 1: one Stripe account per service
  walk_from  BIGINT      NOT NULL,
  walk_below BIGINT      NOT NULL,
  walk_to    BIGINT      NOT NULL,
  version    BIGINT      NOT NULL,
  updated_at DATETIME(3) NOT NULL               -- UTC, for whoever looks
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
