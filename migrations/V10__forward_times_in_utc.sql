-- The relay's due times and leases are UTC from now on (UTC_TIMESTAMP), one clock for every instance
-- whatever its database.time_zone. The events still waiting were written in the sessions' zone, the
-- configured one (placeholder time_zone, given by paynotify's migration): moved to UTC with them.
-- The column default stays: paynotify's inserts set next_attempt_at themselves.
UPDATE forward_events
   SET next_attempt_at = CONVERT_TZ(next_attempt_at, '${time_zone}', '+00:00'),
       lease_until = CONVERT_TZ(lease_until, '${time_zone}', '+00:00')
 WHERE state = 'pending';
