/**
 * Everything about the platforms, one subpackage each, both ways. In: a {@link paynotify.channel.NotifyChannel}
 * turns a raw request into a verified {@link paynotify.channel.NotifyEvent}, reached at its
 * {@link paynotify.channel.NotifyChannel.Door} (its endpoint name, {@link paynotify.channel.Platform}, path and
 * success reply); the epay family shares {@link paynotify.channel.FormChannel}. Out: a platform that can be asked has
 * a {@link paynotify.channel.TradeQuery} (is this order paid? close it), answering a
 * {@link paynotify.channel.TradeAnswer}, and one that publishes bills a {@link paynotify.channel.BillSource} giving a
 * {@link paynotify.channel.DayBill}; its factory, a {@code *Clients} in its folder, builds them as its
 * {@link paynotify.channel.Outbound} (registered once, in {@code config.OutboundConfig}). Each subpackage holds its
 * channel, its {@code *Signature}, its clients and their factory (every rule listed in
 * {@link paynotify.channel.Signatures}).
 *
 * <p>Each client
 * <ul>
 *   <li>signs its request and verifies the answer, where the platform signs them, with the platform's
 *       {@code *Signature} class (its keys, its digests, its RSA check): a rule of the platform's is written
 *       once, whichever way the call goes (epay's and Stripe's answers are unsigned: {@link
 *       paynotify.channel.Signatures} says what stands in for a signature there). Where that class also holds
 *       rules of a notification only (Alipay's notify_type, WeChat v2's field list, v3's signature probe), the
 *       client calls the signature check alone;</li>
 *   <li>takes its base URL from the configuration, the official endpoint by default, so that a test points it
 *       at a local stand-in that checks the signature and signs its answers with test keys;</li>
 *   <li>hands what it learnt to booking as a {@code channel.NotifyEvent} made by the channel's own
 *       normalisation ({@code AlipayChannel.payment}, {@code WechatV2Channel.payment}, ...), so that a payment
 *       found by asking is booked through the same transaction and keys as one that was notified;</li>
 *   <li>is opt-in where it needs a key that can move money (a merchant private key, {@link
 *       paynotify.crypto.MerchantKey}): without the key configured, nothing is asked;</li>
 *   <li>calls through {@link paynotify.net.OutboundHttp}: bounded time, pool and answer size, never
 *       blocking an event loop.</li>
 * </ul>
 * Channels and clients never touch the database: the caller decides what is booked.
 */
package paynotify.channel;
