/**
 * What the owner is told about, looked for: {@link paynotify.alert.watch.AlertWatch} looks every ten seconds on
 * one instance (its lease in alert_lease) through each {@link paynotify.alert.watch.Watch} (new anomalies, daily
 * closes over, signature bursts, the site not taking events, every payment, the public notify address) and says
 * when the database stops answering; what they find goes to {@link paynotify.alert.Alerts}, which sends it.
 */
package paynotify.alert.watch;
