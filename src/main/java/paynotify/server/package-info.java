/**
 * The running service on one Vert.x instance: {@link paynotify.server.PayNotifyServer} wires the listeners,
 * booking, the forward relay and the housekeeping timer; {@link paynotify.server.Pools} builds the bounded
 * connection pools, each with its session pinned; logging is set up by {@link paynotify.server.ConsoleLogging}.
 */
package paynotify.server;
