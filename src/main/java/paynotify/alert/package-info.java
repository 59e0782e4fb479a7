/**
 * Telling the owner where they look: alerts about what needs a human (anomalies, a failing forward, a burst of
 * signature failures, the daily close), throttled, sent to chat robots, push services and mail.
 */
package paynotify.alert;
