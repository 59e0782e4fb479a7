/**
 * The admin listener, on a port nginx does not proxy: {@code /metrics} (Prometheus), {@code /status} (a page for a
 * person) and {@code /status.json}, all read from the database by {@link paynotify.admin.StatusReport} on a pool of
 * their own, so that whoever polls them never takes a booking's connection.
 */
package paynotify.admin;
