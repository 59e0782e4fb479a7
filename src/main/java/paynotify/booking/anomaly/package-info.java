/**
 * What needs a human: the kinds ({@link paynotify.booking.anomaly.AnomalyKind}, each with the action it asks
 * for) and the anomalies table ({@link paynotify.booking.anomaly.Anomalies}). A finding is recorded in the
 * transaction that found it, the site told through {@code booking.SiteEvents#recordAnomaly}.
 */
package paynotify.booking.anomaly;
