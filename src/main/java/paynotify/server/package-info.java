/**
 * The running service on one Vert.x instance: {@link paynotify.server.PayNotifyServer} wires, in start order, the
 * pools, booking, the notify and admin listeners, and the work that runs beside them when configured: the forward
 * relay, recovery's sweeper, the daily close, the alerts ({@link paynotify.server.Alerting}) and the housekeeping
 * timer ({@link paynotify.server.Housekeeping}). {@link paynotify.server.Pools} builds the bounded connection pools,
 * each with its session pinned; logging is set up by {@link paynotify.server.ConsoleLogging}.
 */
package paynotify.server;
