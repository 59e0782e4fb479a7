-- Rejected requests (forged or malformed: anyone can send them) keep no body: only its size
-- (body_bytes), its SHA-256 and a short printable prefix, enough to recognise a flood or match a
-- sample without keeping a buyer's data. raw_body stays for genuine notifications (disputes).
ALTER TABLE notify_log
  ADD COLUMN body_sha256 CHAR(64) CHARACTER SET ascii NULL AFTER body_bytes,
  ADD COLUMN body_prefix VARCHAR(64) CHARACTER SET ascii NULL AFTER body_sha256;
