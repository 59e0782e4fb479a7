/**
 * The notify listener: one route per channel ({@link paynotify.http.NotifyVerticle}), the body read within bounds,
 * then {@link paynotify.http.NotifyFate} owns the request's fate: the channel asked to verify, booking's
 * {@code Receipt} asked to decide and book, and, once for every request, its reply, its count in /metrics and its
 * log line. It runs no SQL; {@code /health} says whether the database answers.
 */
package paynotify.http;
