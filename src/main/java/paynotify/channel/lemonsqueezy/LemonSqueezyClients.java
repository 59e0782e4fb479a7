package paynotify.channel.lemonsqueezy;

import java.net.URI;
import java.util.List;
import java.util.function.Function;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundHttp;

/**
 * Builds Lemon Squeezy's outbound side, opt-in by the account's API key (lemonsqueezy.api_key_file): its Order asked
 * by the id the site keeps in orders.columns.platform_ref with the Order's identifier ({@link LemonSqueezyQuery}), and
 * the store's orders listed for the payments no webhook booked ({@link LemonSqueezyOrders}). Without the key, Lemon
 * Squeezy is not asked. No bill; no order is closed (its API has no such call).
 *
 * @param api     {@code https://api.lemonsqueezy.com}, or a stand-in's
 * @param apiKey  the key; null when not given
 * @param storeId the store whose orders are booked (lemonsqueezy.store_id)
 */
public record LemonSqueezyClients(URI api, String apiKey, String storeId, LemonSqueezyChannel channel)
    implements Outbound {
  /** Lemon Squeezy's API host, test mode's too (a test-mode key reads test data): a key is sent to no other. */
  public static final List<String> HOSTS = List.of("api.lemonsqueezy.com");

  @Override
  public Platform platform() {
    return Platform.LEMONSQUEEZY;
  }

  /** Its Order asked by its id: null when the key is not given. */
  @Override
  public Function<OutboundHttp, TradeQuery> query() {
    return apiKey == null ? null : http -> new LemonSqueezyQuery(http, api, apiKey, channel);
  }

  /** The store's orders: null when the key is not given. */
  @Override
  public Function<OutboundHttp, Undelivered> undelivered() {
    return apiKey == null ? null : http -> new LemonSqueezyOrders(http, api, apiKey, storeId, channel);
  }
}
