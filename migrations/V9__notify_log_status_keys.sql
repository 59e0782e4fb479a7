-- The status page (/status, paynotify status) reads each channel's last notification and the last
-- rejected and error ones: one index dive each (InnoDB keeps the primary key in every secondary key,
-- so ORDER BY id DESC reads these backwards), whatever the log's size. Added in place, no rebuild.
ALTER TABLE notify_log ADD KEY idx_notify_log_channel (channel), ADD KEY idx_notify_log_outcome (outcome);
