-- Alerts (alert.AlertWatch): which anomalies and daily closes the owner was told of. The flag is set by the
-- instance that tells, in an UPDATE ... WHERE NOT alerted: the database decides who tells, once. Rows there
-- before this migration count as told (no flood of history); new ones start untold.
ALTER TABLE anomalies ADD COLUMN alerted BOOLEAN NOT NULL DEFAULT TRUE, ADD KEY idx_anomalies_alerted (alerted, id);
ALTER TABLE anomalies ALTER COLUMN alerted SET DEFAULT FALSE;
ALTER TABLE daily_closes ADD COLUMN alerted BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE daily_closes ALTER COLUMN alerted SET DEFAULT FALSE;
UPDATE daily_closes SET alerted = FALSE WHERE state = 'pending';  -- closes still to come: told when over

-- One instance watches for what to tell (a burst of refused signatures, the site not taking events): a lease.
CREATE TABLE alert_lease (
  name        VARCHAR(16) NOT NULL PRIMARY KEY,
  lease_owner VARCHAR(64) NULL,
  lease_until DATETIME(3) NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
