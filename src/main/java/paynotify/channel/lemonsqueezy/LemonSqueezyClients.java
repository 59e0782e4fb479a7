package paynotify.channel.lemonsqueezy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;
import java.util.function.Function;
import paynotify.channel.Ids;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.BearerApi;
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
  /**
   * The fields of an Order kept (in notify_log, with what was made of it): those the channel reads and those that name
   * it, not the buyer's name and email, nor the receipt's signed URL (a link that opens the order to whoever has it).
   */
  private static final List<String> KEPT = List.of("store_id", "identifier", "order_number", "currency", "total",
      "total_usd", "refunded", "refunded_amount", "status", "test_mode", "created_at", "updated_at");

  /**
   * Lemon Squeezy's API as the client {@code name} reads it, first in its every message (JSON:API: its media type asked
   * for, its errors' words): a key refused is named by its setting. A key has no permissions to choose from: it can do
   * whatever the account can, refunds included.
   */
  static BearerApi api(String name) {
    return new BearerApi(name, "lemonsqueezy.api_key_file must hold an API key of the store's account (Settings →"
        + " API), made in live mode (in test mode for lemonsqueezy.test_mode: true)", "application/vnd.api+json",
        LemonSqueezyClients::errors);
  }

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

  /** What is kept of an Order the API answered, by either client: its type, its id and its {@link #KEPT} fields. */
  static JsonObject kept(JsonObject order) {
    JsonObject attributes = order.getValue("attributes") instanceof JsonObject a ? a : new JsonObject();
    JsonObject kept = new JsonObject();
    KEPT.forEach(field -> kept.put(field, attributes.getValue(field)));
    return new JsonObject().put("type", order.getValue("type")).put("id", order.getValue("id")).put("attributes", kept);
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
