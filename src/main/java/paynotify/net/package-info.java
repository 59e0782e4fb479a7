/**
 * Calls out of the service: {@link paynotify.net.OutboundHttp} (bounded pool, queue, time and answer, no
 * redirects) and its failures ({@link paynotify.net.OutboundFailure}), whoever calls: a platform's client, the
 * site's endpoints, PayPal's postback, an alert target. Knows no platform.
 */
package paynotify.net;
