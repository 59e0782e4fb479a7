package paynotify.channel.lemonsqueezy;

import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
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
 * The store's orders, as Lemon Squeezy's API lists them ({@code GET /v1/orders?filter[store_id]=...}, docs
 * /api/orders/list-all-orders): newest first ({@code created_at} descending), paged by {@code page[number]} and
 * {@code page[size]}. Lemon Squeezy cannot list only the orders whose webhook failed, and its orders carry no custom
 * data: each one of the window is read by the channel as an order naming no order of the site
 * ({@link LemonSqueezyChannel#listed}), which the booking records for a human, one that took money, only while no
 * payment holds its trade. Nor can it be asked for a window of times: the pages of orders newer than the window are
 * passed over, and where a walk got to is remembered ({@link Mark}), so that the next sweep does not start from the
 * top. What is kept of each is {@link LemonSqueezyApi#kept}'s.
 */
public final class LemonSqueezyOrders implements Outbound.Undelivered {
  /**
   * Orders a page holds (Lemon Squeezy's default; it takes up to 100): nearly every sweep reads one page, the newest,
   * for the few orders made since the last, and an Order with its relationships' links is some 3 KiB.
   */
  static final int PAGE = 10;
  /**
   * How old an order is before it is read: Lemon Squeezy retries a webhook 5, 25 and 125 s after the first try (docs
   * /help/webhooks/webhook-requests), each try a few seconds more; ten minutes leave that, and a resend the owner makes
   * at once, their time, and read the order once it has settled.
   */
  static final long SETTLE_SECONDS = 600;
  /** The list's name, in notify_log and the logs. */
  static final String SOURCE = "lemonsqueezy orders";
  /** Pages of orders newer than the window one call passes over at most: beyond, the walk waits (unavailable). */
  static final int PASSED_OVER = 20;
  /** Lemon Squeezy's API, its messages named by the list's. */
  private static final BearerApi API = LemonSqueezyApi.api(SOURCE);

  /**
   * Every order made before {@code below} (Unix seconds) is on page {@code page} or later: a page's first order is its
   * newest, every page before holds none older, and new orders only ever come at the top, pushing older ones down (a
   * live order is never removed; test-mode data deleted in the dashboard takes its orders with it, and nothing is lost
   * by passing them).
   */
  private record Mark(long below, int page) {}

  private final OutboundHttp http;
  private final URI api;
  private final String key;
  private final String storeId;
  private final LemonSqueezyChannel channel;
  private volatile Mark mark = new Mark(0, 1);

  /** @param base {@code https://api.lemonsqueezy.com}, or a stand-in's */
  LemonSqueezyOrders(OutboundHttp http, URI base, String apiKey, String storeId, LemonSqueezyChannel channel) {
    this.http = http;
    this.api = Urls.at(base, "/v1/orders");
    this.key = apiKey;
    this.storeId = storeId;
    this.channel = channel;
  }

  @Override
  public Platform platform() {
    return Platform.LEMONSQUEEZY;
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public long settleSeconds() {
    return SETTLE_SECONDS;
  }

  @Override
  public NotifyEvent read(JsonObject order) throws RejectedNotification {
    return channel.listed(order);
  }

  /**
   * The store's orders made in [{@code from}, {@code before}) (Unix seconds), newest first, from page {@code after}
   * (null: the first that can hold them): the first page that holds any, or none once the list is past them.
   */
  @Override
  public Future<Page> page(long from, long before, String after) {
    Mark known = mark;
    return page(from, before, after != null ? Integer.parseInt(after) : known.below() >= before ? known.page() : 1, 0);
  }

  private Future<Page> page(long from, long before, int number, int passedOver) {
    URI url = URI.create(api + "?" + encode("filter[store_id]") + "=" + encode(storeId) + "&" + encode("page[number]")
        + "=" + number + "&" + encode("page[size]") + "=" + PAGE);
    return API.get(http, url, key).compose(body -> {
      List<Missed> orders = orders(body);
      if (!orders.isEmpty()) {
        mark = new Mark(orders.get(0).created(), number);
      }
      List<Missed> window = orders.stream().filter(o -> o.created() >= from && o.created() < before).toList();
      boolean past = orders.isEmpty() || orders.get(orders.size() - 1).created() < from || !more(body);
      if (!window.isEmpty() || past) {
        return Future.succeededFuture(new Page(window, !past, window.isEmpty() ? null : Integer.toString(number + 1)));
      }
      if (passedOver + 1 >= PASSED_OVER) { // a store this busy is past what a sweep reads: said each sweep
        return Future.failedFuture(OutboundFailure.unavailable(source() + ": more than " + PASSED_OVER * PAGE
            + " orders made since " + Instant.ofEpochSecond(before) + ", passed over: the orders before are not read"));
      }
      return page(from, before, number + 1, passedOver + 1);
    });
  }

  /** The page's orders, each with when it was made and what is kept of it. */
  private static List<Missed> orders(JsonObject body) {
    try {
      return body.getJsonArray("data").stream().map(item -> missed((JsonObject) item)).toList();
    } catch (ClassCastException | NullPointerException | DateTimeException e) {
      throw OutboundFailure.unavailable(SOURCE + ": the answer is not a list of orders");
    }
  }

  private static Missed missed(JsonObject order) {
    JsonObject attributes = order.getJsonObject("attributes");
    return new Missed(order.getString("id"), "order " + Ids.printable(attributes.getString("status")),
        Instant.parse(attributes.getString("created_at")).getEpochSecond(), LemonSqueezyApi.kept(order));
  }

  /** Whether the list goes on after this page ({@code meta.page}: its currentPage before its lastPage). */
  private static boolean more(JsonObject body) {
    try {
      JsonObject page = body.getJsonObject("meta").getJsonObject("page");
      return page.getInteger("currentPage") < page.getInteger("lastPage");
    } catch (ClassCastException | NullPointerException e) {
      throw OutboundFailure.unavailable(SOURCE + ": the answer says nothing of its pages");
    }
  }
}
