/**
 * Telling the owner where they look: alerts about what needs a human (anomalies, a failing forward, a burst of
 * signature failures, the database down or refusing writes, the daily close), found by the watches of
 * {@code alert.watch} (and {@link paynotify.alert.RefusalAlerts} for the database refusing writes), worded by
 * {@link paynotify.alert.AlertMessages}, throttled, folded and queued by {@link paynotify.alert.Alerts}, and sent
 * by one {@link paynotify.alert.AlertTarget} per service: chat robots, push services and mail, each on its own HTTP
 * client ({@link paynotify.alert.AlertClients}). {@link paynotify.alert.SelfProbe} is {@code paynotify probe} and
 * the hourly probe of the public notify address.
 */
package paynotify.alert;
