/**
 * What the owner is told about, looked for. {@link paynotify.alert.watch.AlertWatch} looks every ten seconds (a
 * {@code timer.Periodic}) on the one instance that holds alert_lease ({@code store.Lease}) through each
 * {@link paynotify.alert.watch.Watch}: {@code AnomalyWatch} (new anomalies) and {@code DailyCloseWatch} (daily
 * closes over), each row told once by flipping its alerted flag ({@code FlagWatch}); {@code SignatureWatch} (a
 * channel's signature burst), {@code ForwardBacklogWatch} (the site not taking events), {@code PaymentWatch}
 * (every payment, when asked to), {@code ProbeWatch} (the public notify address, hourly), {@code CertificateWatch}
 * (certificates expiring within 30 days, Alipay's re-issued one; hourly) and {@code PublicKeySwitchWatch} (WeChat Pay
 * signing with a public key none of platform_keys is), both guarding {@code WatchedKeys}. {@code DatabaseDown}
 * says, on every instance, when the database stops answering the look. What they find is raised on
 * {@link paynotify.alert.Alerts}, which words nothing itself: {@code alert.AlertMessages} words it, Alerts throttles
 * and sends it to each target. A new kind of alert is a new Watch in AlertWatch's list.
 */
package paynotify.alert.watch;
