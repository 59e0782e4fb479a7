/**
 * Telling the owner where they look: alerts about what needs a human (anomalies, a failing forward, a burst of
 * signature failures, the database down or refusing writes, the daily close), most found by
 * {@link paynotify.alert.AlertWatch} (one instance at a time, under {@code alert_lease}), worded by
 * {@link paynotify.alert.AlertMessages}, throttled, folded and queued by {@link paynotify.alert.Alerts}, and sent
 * by one {@link paynotify.alert.AlertTarget} per service: chat robots, push services and mail.
 */
package paynotify.alert;
