package paynotify.channel.stripe;

import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;
import paynotify.channel.Ids;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Outbound;
import paynotify.channel.Outbound.Missed;
import paynotify.channel.Outbound.Page;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.net.BearerApi;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * Stripe's list of the events whose delivery to a webhook endpoint has not succeeded
 * ({@code GET /v1/events?delivery_success=false}): still being retried, or given up. Asked with a
 * <em>restricted</em> key that can only read (an {@code rk_...} key with "Events: Read"): it cannot move money.
 * Stripe's API signs nothing; the answer is trusted as Stripe's because it comes over TLS to api.stripe.com
 * with the account's own key, as stripe-java trusts it; each is read by the channel as its webhook.
 */
public final class StripeEvents implements Outbound.Undelivered {
  /** Events a page holds: a few KiB each, so a page stays well under the client's answer cap. */
  static final int PAGE = 20;
  private static final BearerApi API = new BearerApi("stripe events", "stripe.api_key_file must hold a restricted key"
      + " (rk_...) with the permission Events: Read", e -> Ids.printable(e.getString("type", "")) + " "
      + Ids.printable(e.getString("message", "")));

  private final OutboundHttp http;
  private final URI api;
  private final String key;
  private final StripeChannel channel;

  /** @param base {@code https://api.stripe.com}, or a stand-in's */
  StripeEvents(OutboundHttp http, URI base, String restrictedKey, StripeChannel channel) {
    this.http = http;
    this.api = base.resolve("/v1/events");
    this.key = restrictedKey;
    this.channel = channel;
  }

  @Override
  public Platform platform() {
    return Platform.STRIPE;
  }

  @Override
  public NotifyEvent read(JsonObject event) throws RejectedNotification {
    return channel.read(event);
  }

  /**
   * The events not delivered created in [{@code createdFrom}, {@code createdBefore}) (Unix seconds, Stripe's
   * {@code created}), newest first, after {@code startingAfter} (null: from the newest).
   */
  @Override
  public Future<Page> page(long createdFrom, long createdBefore, String startingAfter) {
    String query = "delivery_success=false&limit=" + PAGE + "&" + encode("created[gte]") + "=" + createdFrom + "&"
        + encode("created[lt]") + "=" + createdBefore
        + (startingAfter == null ? "" : "&starting_after=" + encode(startingAfter));
    return API.get(http, URI.create(api + "?" + query), key).map(StripeEvents::page);
  }

  private static Page page(JsonObject body) {
    try {
      JsonArray data = body.getJsonArray("data");
      List<Missed> events = data.stream().map(item -> missed((JsonObject) item)).toList();
      String last = events.isEmpty() ? null : events.get(events.size() - 1).id();
      return new Page(events, Boolean.TRUE.equals(body.getBoolean("has_more")), last);
    } catch (ClassCastException | NullPointerException e) {
      throw OutboundFailure.unavailable("stripe events: the answer is not a list of events");
    }
  }

  private static Missed missed(JsonObject event) {
    return new Missed(event.getString("id"), event.getValue("type") instanceof String t ? t : "no type",
        event.getValue("created") instanceof Number n ? n.longValue() : null, event);
  }
}
