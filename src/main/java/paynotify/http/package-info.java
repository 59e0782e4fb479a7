/**
 * The notify listener: one route per channel, the body read within bounds, the channel asked to verify, booking
 * asked to book, the platform's own reply sent. It runs no SQL; {@code /health} says whether the database answers.
 */
package paynotify.http;
