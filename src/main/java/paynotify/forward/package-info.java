/**
 * The site told of what was booked: {@link paynotify.forward.ForwardRelay} delivers the events the booking
 * transaction wrote to {@code forward_events} (the outbox), signed ({@link paynotify.forward.ForwardSignature}),
 * at least once, with the same id on every attempt.
 */
package paynotify.forward;
