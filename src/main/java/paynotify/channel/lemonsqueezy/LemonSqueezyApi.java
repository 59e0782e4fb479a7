package paynotify.channel.lemonsqueezy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import paynotify.channel.Ids;
import paynotify.net.BearerApi;

/**
 * Lemon Squeezy's API as both its clients read it ({@link LemonSqueezyQuery}, {@link LemonSqueezyOrders}): its JSON:API
 * answers and errors, and what is kept of an Order it answered.
 */
final class LemonSqueezyApi {
  /**
   * The fields of an Order kept (in notify_log, with what was made of it): those the channel reads and those that name
   * it, not the buyer's name and email, nor the receipt's signed URL (a link that opens the order to whoever has it).
   */
  private static final List<String> KEPT = List.of("store_id", "identifier", "order_number", "currency", "total",
      "total_usd", "refunded", "refunded_amount", "status", "test_mode", "created_at", "updated_at");

  private LemonSqueezyApi() {}

  /**
   * Lemon Squeezy's API as the client {@code name} reads it, first in its every message (JSON:API: its media type asked
   * for, its errors' words): a key refused is named by its setting. A key has no permissions to choose from: it can do
   * whatever the account can, refunds included.
   */
  static BearerApi api(String name) {
    return new BearerApi(name, "lemonsqueezy.api_key_file must hold an API key of the store's account (Settings →"
        + " API), made in live mode (in test mode for lemonsqueezy.test_mode: true)", "application/vnd.api+json",
        LemonSqueezyApi::errors);
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
    return Ids.printable(e.getValue("title", "")) + " " + Ids.printable(
        e.getValue("detail", ""));
  }
}
