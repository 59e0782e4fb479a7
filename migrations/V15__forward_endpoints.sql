-- The site's endpoint, as the relay last found it: a 410 Gone answer (Standard Webhooks: the endpoint was
-- removed) stops every delivery to it, on every instance, until `paynotify forward enable`. The row is the
-- holder of that decision; no row, or disabled_at NULL, is an endpoint in use. 'site' is forward.url.
CREATE TABLE forward_endpoints (
  name            VARCHAR(32)  NOT NULL PRIMARY KEY,
  disabled_at     DATETIME(3)  NULL,
  disabled_reason VARCHAR(255) NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
