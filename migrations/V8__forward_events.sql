-- The transactional outbox: one row per event the site is told of (payment.succeeded,
-- refund.succeeded, order.closed, anomaly.created), written in the very transaction that booked
-- what it tells, so a rolled-back booking leaves none and a committed one is never lost. The relay
-- of each instance claims due rows with a lease committed before it sends (several instances never
-- send one event at the same moment; an expired lease is taken over) and delivers them at least once.
CREATE TABLE forward_events (
  id              BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  event_id        VARCHAR(40)  CHARACTER SET ascii NOT NULL,  -- evt_<32 hex>: the id the site dedupes on
  type            VARCHAR(32)  CHARACTER SET ascii NOT NULL,
  order_no        VARCHAR(64)  COLLATE utf8mb4_bin NULL,      -- for `paynotify forward list --order`
  body            TEXT         NOT NULL,                      -- the JSON sent, the same bytes every attempt
  state           VARCHAR(16)  CHARACTER SET ascii NOT NULL DEFAULT 'pending',  -- pending, delivered, failed
  attempts        INT          NOT NULL DEFAULT 0,
  next_attempt_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  lease_owner     VARCHAR(64)  NULL,
  lease_until     DATETIME(3)  NULL,
  last_error      VARCHAR(500) NULL,
  created_at      DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  delivered_at    DATETIME(3)  NULL,
  UNIQUE KEY uk_event_id (event_id),
  KEY idx_forward_due (state, next_attempt_at),
  KEY idx_forward_order (order_no),
  KEY idx_forward_delivered (delivered_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
