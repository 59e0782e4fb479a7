package paynotify.channel.paddle;

import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.DateTimeException;
import java.time.Instant;
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
import paynotify.net.Urls;

/**
 * Paddle's notifications to this service's destination that were not delivered ({@code GET /notifications
 * ?notification_setting_id=ntfset_...&status=failed,needs_retry,not_attempted}): still being retried, given up, or
 * not tried yet; each one's {@code payload} is the event its webhook carries, read by the channel.
 *
 * <p>The notifications API, not the events API ({@code GET /events?after=evt_...}): it says exactly "not delivered to
 * this destination", as Stripe's {@code delivery_success=false} does, so a sweep reads the few that were lost, not
 * every event of the account (each of them then a duplicate), and another destination's events (another site on the
 * account) are not read at all. Paddle keeps notifications 90 days, longer than recovery.max_age can be. It lists them
 * newest first ({@code id[DESC]}) within {@code from}/{@code to}, paged by {@code after} (the id ending the page, what
 * {@code meta.pagination.next} carries): the walk Stripe's events take.
 *
 * <p>Asked with an API key that needs only the permission Notifications: read ({@code notification.read}): it cannot
 * move money. The answer is trusted as Paddle's because it comes over TLS from api.paddle.com with the account's key,
 * as Paddle's SDKs trust it.
 */
public final class PaddleEvents implements Outbound.Undelivered {
  /** Notifications a page holds: a transaction's is some 5-10 KiB, so a page stays well under the answer cap. */
  static final int PAGE = 30;
  /** Every status but delivered (Paddle's NotificationStatus). */
  private static final String UNDELIVERED = "failed,needs_retry,not_attempted";
  private static final BearerApi API = new BearerApi("paddle events", "paddle.api_key_file must hold an API"
      + " key of this account (live or sandbox, as paddle.api_base) with the permission Notifications: read",
      e -> Ids.printable(e.getString("code", "")) + " " + Ids.printable(e.getString("detail", "")));

  private final OutboundHttp http;
  private final URI api;
  private final String key;
  private final String destination;
  private final PaddleChannel channel;

  /**
   * @param base        {@code https://api.paddle.com}, {@code https://sandbox-api.paddle.com}, or a stand-in's
   * @param destination the notification destination's id ({@code ntfset_...}) this service is
   */
  PaddleEvents(OutboundHttp http, URI base, String apiKey, String destination, PaddleChannel channel) {
    this.http = http;
    this.api = Urls.at(base, "/notifications");
    this.key = apiKey;
    this.destination = destination;
    this.channel = channel;
  }

  @Override
  public Platform platform() {
    return Platform.PADDLE;
  }

  @Override
  public NotifyEvent read(JsonObject event) throws RejectedNotification {
    return channel.read(event);
  }

  /**
   * The undelivered notifications that occurred in [{@code from}, {@code before}) (Unix seconds; Paddle's {@code to}
   * may include its second: one listed twice is taken once), newest first, after {@code after} (a {@code ntf_} id;
   * null: from the newest).
   */
  @Override
  public Future<Page> page(long from, long before, String after) {
    String query = "notification_setting_id=" + encode(destination) + "&status=" + encode(UNDELIVERED)
        + "&from=" + encode(Instant.ofEpochSecond(from).toString())
        + "&to=" + encode(Instant.ofEpochSecond(before).toString()) + "&per_page=" + PAGE
        + (after == null ? "" : "&after=" + encode(after));
    return API.get(http, URI.create(api + "?" + query), key).map(PaddleEvents::page);
  }

  private static Page page(JsonObject body) {
    try {
      JsonArray data = body.getJsonArray("data");
      List<Missed> events = data.stream().map(item -> missed((JsonObject) item)).toList();
      String last = events.isEmpty() ? null : ((JsonObject) data.getValue(data.size() - 1)).getString("id");
      JsonObject pagination = body.getJsonObject("meta").getJsonObject("pagination");
      return new Page(events, Boolean.TRUE.equals(pagination.getBoolean("has_more")), last);
    } catch (ClassCastException | NullPointerException e) {
      throw OutboundFailure.unavailable("paddle events: the answer is not a list of notifications");
    }
  }

  /** A notification: its event ({@code payload}), known by the event's id (a replay is the same event). */
  private static Missed missed(JsonObject notification) {
    JsonObject event = notification.getJsonObject("payload");
    String id = event.getValue("event_id") instanceof String e ? e : notification.getString("id");
    String type = event.getValue("event_type") instanceof String t ? t : "no event_type";
    Long at;
    try {
      at = Instant.parse(notification.getString("occurred_at", "")).getEpochSecond();
    } catch (DateTimeException e) {
      at = null;
    }
    return new Missed(id, type, at, event);
  }
}
