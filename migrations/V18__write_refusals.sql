-- Each ended time during which the database refused writes (store.WriteRefusals: the disk full, read-only, too
-- many connections, out of memory), written when it is over: what the status page's attention line, the sweeper
-- and the daily close read back afterwards (store.RefusalEpisodes). Written by the instance that saw it; two
-- instances seeing one outage write a row each (each counts its own refusals). Times are UTC, one clock for
-- every instance.
CREATE TABLE write_refusals (
  id          BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  started_at  DATETIME(3)   NOT NULL,                -- the first refusal
  ended_at    DATETIME(3)   NOT NULL,                -- the last refusal
  reason      VARCHAR(128)  NOT NULL,                -- the first refusal's, e.g. disk full (1114)
  refused     INT           NOT NULL,                -- notifications answered failure because of it
  by_endpoint TEXT          NOT NULL,                -- JSON: {"alipay": 30, "epusdt": 7}
  lost_orders TEXT          NOT NULL,                -- JSON: ["EP1", "EP2"], '[]' when none: the orders named by
                                                     -- refused notifications of platforms that never deliver
                                                     -- again (epusdt, V免签), at most 20
  created_at  DATETIME(3)   NOT NULL,
  KEY idx_write_refusals_ended (ended_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
