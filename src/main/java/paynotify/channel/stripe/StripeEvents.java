package paynotify.channel.stripe;

import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import paynotify.channel.Ids;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * Stripe's list of the events whose delivery to a webhook endpoint has not succeeded
 * ({@code GET /v1/events?delivery_success=false}): still being retried, or given up. Asked with a
 * <em>restricted</em> key that can only read (an {@code rk_...} key with "Events: Read"): it cannot move money.
 * Stripe's API signs nothing; the answer is trusted as Stripe's because it comes over TLS to api.stripe.com
 * with the account's own key, as stripe-java trusts it.
 */
public final class StripeEvents {
  /** Events a page holds: a few KiB each, so a page stays well under the client's answer cap. */
  static final int PAGE = 20;

  /** One page of events, oldest last as Stripe lists them, and whether more follow. */
  public record Page(List<JsonObject> events, boolean hasMore) {
    /** The id to continue after ({@code starting_after}), or null on an empty page. */
    public String last() {
      return events.isEmpty() ? null : events.get(events.size() - 1).getString("id");
    }
  }

  private final OutboundHttp http;
  private final URI api;
  private final String key;

  /** @param base {@code https://api.stripe.com}, or a stand-in's */
  public StripeEvents(OutboundHttp http, URI base, String restrictedKey) {
    this.http = http;
    this.api = base.resolve("/v1/events");
    this.key = restrictedKey;
  }

  /**
   * The events not delivered created in [{@code createdFrom}, {@code createdBefore}) (Unix seconds), newest first,
   * after {@code startingAfter} (null: from the newest).
   */
  public Future<Page> undelivered(long createdFrom, long createdBefore, String startingAfter) {
    String query = "delivery_success=false&limit=" + PAGE + "&" + encode("created[gte]") + "=" + createdFrom + "&"
        + encode("created[lt]") + "=" + createdBefore
        + (startingAfter == null ? "" : "&starting_after=" + encode(startingAfter));
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(HttpHeaders.AUTHORIZATION, "Bearer " + key)
        .add(HttpHeaders.ACCEPT, "application/json");
    return http.send(HttpMethod.GET, URI.create(api + "?" + query), headers, null).map(StripeEvents::page);
  }

  private static Page page(OutboundHttp.Answer answer) {
    JsonObject body;
    try {
      body = new JsonObject(answer.body());
    } catch (DecodeException e) {
      throw OutboundFailure.unavailable("stripe events: HTTP " + answer.status() + ", not JSON");
    }
    int status = answer.status();
    if (status == 401 || status == 403) {
      throw OutboundFailure.refused("stripe events: HTTP " + status + " " + error(body)
          + ": stripe.api_key_file must hold a restricted key (rk_...) with the permission Events: Read");
    }
    if (status != 200) {
      throw OutboundFailure.unavailable("stripe events: HTTP " + status + " " + error(body));
    }
    try {
      JsonArray data = body.getJsonArray("data");
      List<JsonObject> events = new ArrayList<>(data.size());
      for (Object event : data) {
        events.add((JsonObject) event);
      }
      return new Page(events, Boolean.TRUE.equals(body.getBoolean("has_more")));
    } catch (ClassCastException | NullPointerException e) {
      throw OutboundFailure.unavailable("stripe events: the answer is not a list of events");
    }
  }

  private static String error(JsonObject body) {
    Object error = body.getValue("error");
    return error instanceof JsonObject e ? Ids.printable(e.getString("type", "")) + " "
        + Ids.printable(e.getString("message", "")) : "";
  }
}
