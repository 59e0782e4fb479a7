-- The recovery sweeper's memory of each unpaid order it asks the platforms about: when to ask next
-- (back-off 1, 2, 4, 8, 15, 30, 60 min, then hourly), what the platform said last, and a lease so that
-- several instances never ask about one order at the same moment (as forward_events' relay lease).
-- Times are UTC (UTC_TIMESTAMP), one clock for every instance. Rows go once past recovery.max_age.
CREATE TABLE order_checks (
  order_no        VARCHAR(255) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,  -- as long as a site's order numbers go
  attempts        INT          NOT NULL DEFAULT 0,
  next_check_at   DATETIME(3)  NOT NULL,
  done            BOOLEAN      NOT NULL DEFAULT FALSE,   -- paid and booked, or closed: not asked again
  last_state      VARCHAR(64)  NULL,                        -- the platform's word, cut to 64
  last_checked_at DATETIME(3)  NULL,
  lease_owner     VARCHAR(64)  NULL,
  lease_until     DATETIME(3)  NULL,
  created_at      DATETIME(3)  NOT NULL,
  KEY idx_order_checks_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
