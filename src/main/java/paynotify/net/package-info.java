/**
 * Calls out of the service: {@link paynotify.net.OutboundHttp}, the one maker of HTTP clients (each caller its own:
 * bounded pool, queue, time and answer, no redirects), its failures ({@link paynotify.net.OutboundFailure}) and the
 * pieces of a URL ({@link paynotify.net.Urls}), whoever calls: a platform's client, the site's endpoints, PayPal's
 * postback, an alert target. Knows no platform.
 */
package paynotify.net;
