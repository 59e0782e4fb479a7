package paynotify.channel.lemonsqueezy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.function.Function;
import paynotify.channel.Ids;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.BearerApi;
import paynotify.net.OutboundHttp;

/**
 * Builds Lemon Squeezy's outbound side, opt-in by the account's API key (lemonsqueezy.api_key_file): its Order asked by
 * the id the site keeps in orders.columns.platform_ref ({@link LemonSqueezyQuery}), and the store's orders listed for
 * the payments no webhook booked ({@link LemonSqueezyOrders}). Without the key, Lemon Squeezy is not asked. No bill;
 * no order is closed (its API has no such call).
 *
 * @param api     {@code https://api.lemonsqueezy.com}, or a stand-in's
 * @param apiKey  the key; null when not given
 * @param storeId the store whose orders are booked (lemonsqueezy.store_id)
 */
public record LemonSqueezyClients(URI api, String apiKey, String storeId, LemonSqueezyChannel channel)
    implements Outbound {
  /**
   * Lemon Squeezy's API (JSON:API: its media type asked for, its errors' words): a key refused is named by its setting.
   * A key has no permissions to choose from: it can do whatever the account can, refunds included.
   */
  static final BearerApi API = new BearerApi(LemonSqueezyOrders.SOURCE, "lemonsqueezy.api_key_file must hold an API key"
      + " of the store's account (Settings → API), made in live mode (in test mode for lemonsqueezy.test_mode: true)",
      "application/vnd.api+json", LemonSqueezyClients::errors);

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

  /** A JSON:API answer's first error ({@code errors[0]}: its title and detail), or null when it has none. */
  private static String errors(JsonObject body) {
    if (!(body.getValue("errors") instanceof JsonArray errors) || errors.isEmpty()
        || !(errors.getValue(0) instanceof JsonObject e)) {
      return null;
    }
    return Ids.printable(String.valueOf(e.getValue("title", ""))) + " " + Ids.printable(String.valueOf(
        e.getValue("detail", "")));
  }
}
