/**
 * The site told of what was booked: the events the booking transaction wrote to {@code forward_events} (the
 * outbox), delivered at least once, with the same id on every attempt. {@link paynotify.forward.ForwardRelay} runs
 * an {@link paynotify.forward.EndpointRelay} per endpoint (its own rounds and HTTP client, so one endpoint down
 * holds no other; claim, lease, send, retry, disable on a 410) on one small database pool. Each delivery is signed
 * twice: {@link paynotify.forward.WebhookSignature} (Standard Webhooks, what receivers are told to verify) and
 * {@link paynotify.forward.ForwardSignature} ({@code Paynotify-Signature}, Stripe's scheme).
 */
package paynotify.forward;
