-- The daily close (reconcile.daily): one row per channel and bill day, the day's bill fetched and reconciled
-- by one instance at a time (the lease), tried again until it is done or given up, and what it found (summary,
-- JSON: the bill's totals and the findings by kind) for the status page. Times are UTC, one clock for every
-- instance.
CREATE TABLE daily_closes (
  channel       VARCHAR(16)  NOT NULL,                   -- reconcile --channel: alipay, wechat
  bill_date     DATE         NOT NULL,                   -- the day the bill covers (Beijing time)
  state         VARCHAR(16)  NOT NULL,                   -- pending (tried again at next_try_at), done, failed
  attempts      INT          NOT NULL DEFAULT 0,
  next_try_at   DATETIME(3)  NOT NULL,
  lease_owner   VARCHAR(64)  NULL,
  lease_until   DATETIME(3)  NULL,
  last_tried_at DATETIME(3)  NULL,
  detail        VARCHAR(1000) NULL,                      -- the result's one line, or why it was not done
  summary       TEXT         NULL,                       -- done: {"payments":..,"payment_cents":..,...}
  created_at    DATETIME(3)  NOT NULL,
  PRIMARY KEY (channel, bill_date)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
