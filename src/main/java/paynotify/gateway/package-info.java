/**
 * Clients that <em>call</em> a platform: order queries (is this order paid?), order closing, bill downloads.
 * The notify path only answers the platforms; what asks them lives here, one client per platform
 * ({@link paynotify.gateway.WechatV3Gateway} for WeChat Pay v3; to be written: an {@code AlipayGateway} for
 * {@code alipay.trade.query}, and so on).
 *
 * <p>Each client
 * <ul>
 *   <li>signs its request and verifies the answer with the platform's {@code channel.<platform>.*Signature}
 *       class (its keys, its digests, its RSA check): a rule of the platform's is written once, whichever way
 *       the call goes. Where that class also holds rules of a notification only (Alipay's notify_type, Stripe's
 *       livemode), the client calls the signature check alone; split the class's methods so, never copy them;</li>
 *   <li>takes its base URL from the configuration, the official endpoint by default, so that a test points it
 *       at a local stand-in that checks the signature and signs its answers with test keys;</li>
 *   <li>hands what it learnt to booking as a {@code channel.NotifyEvent}, so that a payment found by asking is
 *       booked through the same transaction and keys as one that was notified;</li>
 *   <li>is opt-in where it needs a key that can move money (a merchant private key): without the key
 *       configured, nothing is asked;</li>
 *   <li>uses the Vert.x web client with bounded timeouts and pools, never blocking an event loop.</li>
 * </ul>
 * Nothing here touches the database, as for {@code channel}: the caller decides what is booked.
 */
package paynotify.gateway;
