package paynotify.channel.alipay;

import java.net.URI;
import java.time.Clock;
import java.util.function.Function;
import paynotify.channel.BillSource;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.crypto.MerchantKey;
import paynotify.net.OutboundHttp;

/**
 * Builds Alipay's outbound side: the order query and close ({@link AlipayGateway}) and the day's bill
 * ({@link AlipayBills}), both OpenAPI calls signed with the application's private key. Opt-in: without that key
 * (it can refund) neither exists, and Alipay is never asked.
 *
 * @param gateway   {@code https://openapi.alipay.com/gateway.do}, or a stand-in's
 * @param appKey    the application's private key; null when not given
 * @param signature the notify channel's: Alipay's public key checks answers as it checks notifications
 */
public record AlipayClients(URI gateway, String appId, MerchantKey appKey, AlipaySignature signature, Clock clock)
    implements Outbound {
  @Override
  public Platform platform() {
    return Platform.ALIPAY;
  }

  @Override
  public Function<OutboundHttp, TradeQuery> query() {
    return appKey == null ? null : http -> new AlipayGateway(api(http));
  }

  @Override
  public Function<OutboundHttp, BillSource> bills() {
    return appKey == null ? null : http -> new AlipayBills(api(http));
  }

  /** The one signed call both clients make, over {@code http}. */
  private AlipayOpenApi api(OutboundHttp http) {
    return new AlipayOpenApi(http, gateway, appId, appKey, signature, clock);
  }
}
