/**
 * Clients that <em>call</em> a platform: order queries (is this order paid?), order closing, bill downloads.
 * The notify path only answers the platforms; what asks them lives here, one client per platform:
 * {@link paynotify.gateway.AlipayGateway} ({@code alipay.trade.query}, {@code alipay.trade.close}),
 * {@link paynotify.gateway.WechatV2Gateway} ({@code /pay/orderquery}, {@code /pay/closeorder}),
 * {@link paynotify.gateway.WechatV3Gateway} ({@code /v3/pay/transactions/out-trade-no/...}) and
 * {@link paynotify.gateway.EpayGateway} ({@code api.php?act=order}, unsigned: see {@link paynotify.gateway.TradeQuery#books()}).
 * Bills ({@link paynotify.gateway.BillSource}): {@link paynotify.gateway.WechatV2Bills} ({@code /pay/downloadbill}),
 * {@link paynotify.gateway.WechatV3Bills} ({@code /v3/bill/tradebill}).
 *
 * <p>Each client
 * <ul>
 *   <li>signs its request and verifies the answer with the platform's {@code channel.<platform>.*Signature}
 *       class (its keys, its digests, its RSA check): a rule of the platform's is written once, whichever way
 *       the call goes. Where that class also holds rules of a notification only (Alipay's notify_type, WeChat
 *       v2's field list, v3's signature probe), the client calls the signature check alone;</li>
 *   <li>takes its base URL from the configuration, the official endpoint by default, so that a test points it
 *       at a local stand-in that checks the signature and signs its answers with test keys;</li>
 *   <li>hands what it learnt to booking as a {@code channel.NotifyEvent} made by the channel's own
 *       normalisation ({@code AlipayChannel.payment}, {@code WechatV2Channel.payment}, ...), so that a payment
 *       found by asking is booked through the same transaction and keys as one that was notified;</li>
 *   <li>is opt-in where it needs a key that can move money (a merchant private key, {@link
 *       paynotify.gateway.MerchantKey}): without the key configured, nothing is asked;</li>
 *   <li>calls through {@link paynotify.gateway.GatewayHttp}: bounded time, pool and answer size, never
 *       blocking an event loop.</li>
 * </ul>
 * Nothing here touches the database, as for {@code channel}: the caller decides what is booked.
 */
package paynotify.gateway;
