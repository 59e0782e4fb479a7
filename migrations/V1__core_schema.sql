-- paynotify core schema. Names are shared with the site (see DESIGN.md): keep them.
-- Identifier columns use a binary collation: platform and order ids are case-sensitive,
-- and 'A1' and 'a1' must never collide in a unique key.

-- Written by the site. IF NOT EXISTS: on a site that already has its orders table this
-- migration leaves it alone (it must have at least these columns).
CREATE TABLE IF NOT EXISTS orders (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_no      VARCHAR(64)  COLLATE utf8mb4_bin NOT NULL,
  amount_cents  BIGINT       NOT NULL,
  status        VARCHAR(24)  NOT NULL DEFAULT 'unpaid',
  paid_at       DATETIME(3)  NULL,
  channel       VARCHAR(16)  NULL,
  trade_no      VARCHAR(64)  COLLATE utf8mb4_bin NULL,
  created_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_order_no (order_no)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- One row per platform trade: uk_trade_no is the second idempotency layer and outlives the keys.
CREATE TABLE payments (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  channel       VARCHAR(16)  NOT NULL,
  trade_no      VARCHAR(64)  COLLATE utf8mb4_bin NOT NULL,
  order_no      VARCHAR(64)  COLLATE utf8mb4_bin NOT NULL,
  amount_cents  BIGINT       NOT NULL,
  paid_at       DATETIME(3)  NOT NULL,
  created_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY uk_trade_no (channel, trade_no),
  KEY idx_payments_order_no (order_no)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Business-level idempotency keys (channel:kind:platform id), written in the booking
-- transaction itself so that a rollback removes the key too. Purged after the retention.
CREATE TABLE idempotent_keys (
  idem_key      VARCHAR(128) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
  fingerprint   CHAR(64)     CHARACTER SET ascii NOT NULL,
  created_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  KEY idx_idempotent_keys_created_at (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Every notification received, with what became of it. raw_body is bounded (body_bytes is the full size).
CREATE TABLE notify_log (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  channel       VARCHAR(16)  NOT NULL,
  received_at   DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  remote_addr   VARCHAR(64)  NULL,
  outcome       VARCHAR(16)  NOT NULL,
  idem_key      VARCHAR(128) COLLATE utf8mb4_bin NULL,
  detail        VARCHAR(500) NULL,
  body_bytes    INT          NOT NULL,
  raw_body      BLOB         NULL,
  KEY idx_notify_log_received_at (received_at),
  KEY idx_notify_log_idem_key (idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- What needs a human. dedupe_key makes recording the same finding twice a no-op.
CREATE TABLE anomalies (
  id              BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  kind            VARCHAR(32)  NOT NULL,
  channel         VARCHAR(16)  NOT NULL,
  order_no        VARCHAR(64)  COLLATE utf8mb4_bin NULL,
  trade_no        VARCHAR(64)  COLLATE utf8mb4_bin NULL,
  amount_cents    BIGINT       NULL,
  detail          VARCHAR(1000) NOT NULL,
  dedupe_key      VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
  created_at      DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  resolved_at     DATETIME(3)  NULL,
  resolution_note VARCHAR(1000) NULL,
  UNIQUE KEY uk_anomalies_dedupe (dedupe_key),
  KEY idx_anomalies_open (resolved_at, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
