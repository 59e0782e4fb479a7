-- Several endpoints (forward.endpoints), each with its own delivery: an event the booking wrote for two
-- endpoints is two rows, the same event_id and body, each with its own state, attempts, lease and due time,
-- so one endpoint down never holds another. The rows written before are forward.url's, named 'site'.
-- No default once they are named: every insert says whose row it is. The due index leads with the state,
-- as every query of it does, then the endpoint whose claim it serves: one endpoint's claim never walks the
-- due rows of another (disabled, say, with a day of events waiting).
ALTER TABLE forward_events
  ADD COLUMN endpoint VARCHAR(32) CHARACTER SET ascii NOT NULL DEFAULT 'site' AFTER event_id,
  DROP KEY uk_event_id,
  ADD UNIQUE KEY uk_event_endpoint (event_id, endpoint),
  DROP KEY idx_forward_due,
  ADD KEY idx_forward_due (state, endpoint, next_attempt_at);
ALTER TABLE forward_events ALTER COLUMN endpoint DROP DEFAULT;
