package paynotify.channel.lemonsqueezy;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.EventKind;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;

/**
 * Lemon Squeezy webhooks ({@code POST /notify/lemonsqueezy}, JSON:API events signed as {@link LemonSqueezySignature}
 * says). {@code order_created} of a paid order books its {@code total} for the site's order the checkout carried in
 * {@code meta.custom_data.order_no}; the trade is the Order's {@code data.id}. {@code order_refunded} carries the
 * order's refunded total and no refund id: booked as a cumulative refund keyed by the order and that total. Every
 * other event (subscriptions, license keys, affiliates) books nothing. Lemon Squeezy retries anything but a 200
 * three more times (5 s, 25 s, 125 s; docs /help/webhooks/webhook-requests).
 */
public final class LemonSqueezyChannel implements NotifyChannel.JsonReplies {
  /** Where Lemon Squeezy sends webhooks. */
  public static final String PATH = "/notify/lemonsqueezy";
  /** The payment event; its Order is booked when paid. */
  public static final String ORDER_CREATED = "order_created";
  /** The refund event: the Order again, refunded_amount its running total. */
  public static final String ORDER_REFUNDED = "order_refunded";
  /** The one status of order_created that is a payment (pending, failed and fraudulent are none). */
  static final String PAID = "paid";
  /** An Order refunded in part (lmsqueezy/laravel's OrderStatus): the rest of its money was kept. */
  static final String PARTIAL_REFUND = "partial_refund";
  /** An Order refunded in full. */
  static final String REFUNDED = "refunded";
  /**
   * The statuses of an Order that took the buyer's money, and so those an Order refunded in part or in full is sent
   * with: lmsqueezy/laravel's OrderStatus has partial_refund, but the docs' "Issue a refund" example keeps {@code paid}
   * after a partial refund.
   */
  static final Set<String> TOOK_MONEY = Set.of(PAID, PARTIAL_REFUND, REFUNDED);
  /** The statuses of an Order that took the buyer's money and still holds some of it. */
  private static final Set<String> HOLDS_MONEY = Set.of(PAID, PARTIAL_REFUND);

  private static final Logger LOG = LoggerFactory.getLogger(LemonSqueezyChannel.class);
  // "Return a 200": anything else, 204 included, is a failed delivery retried (docs /help/webhooks/webhook-requests).
  private static final Reply SUCCESS = new Reply(200, null, "");
  private static final Door DOOR = new Door("lemonsqueezy", Platform.LEMONSQUEEZY, PATH, SUCCESS);
  /** The Order's UUID (its identifier), kept in the payment's detail. */
  private static final Pattern UUID = Pattern.compile("[0-9a-fA-F-]{36}");

  private final LemonSqueezySignature signature;
  private final String currency;

  /**
   * @param storeId  the store (Settings → Stores: its number) whose orders are booked
   * @param currency the site's currency, ISO code (e.g. USD): an order paid in another is a currency_mismatch
   * @param testMode test-mode events are accepted, as {@link NotifyEvent#inTestMode()}
   */
  public LemonSqueezyChannel(String signingSecret, String storeId, String currency, boolean testMode) {
    this.signature = new LemonSqueezySignature(signingSecret, storeId, testMode);
    this.currency = currency.toUpperCase(Locale.ROOT);
  }

  @Override
  public Door door() {
    return DOOR;
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    byte[] body = request.body().getBytes();
    signature.verify(request.headers().get(LemonSqueezySignature.HEADER), body);
    // Signed, so Lemon Squeezy's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    JsonObject event;
    try {
      event = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      throw unreadable(null, "the body is not a JSON object");
    }
    try {
      return normalise(event, request.headers().get(LemonSqueezySignature.EVENT_HEADER));
    } catch (ClassCastException e) { // a field of another JSON type than Lemon Squeezy's
      throw unreadable(event, "unexpected JSON structure: " + e.getMessage());
    } catch (RejectedNotification e) {
      if (e.reason() == Reason.WRONG_MERCHANT) { // another store's, or test money: refused as such
        throw e;
      }
      throw unreadable(event, e.getMessage());
    }
  }

  /**
   * The payment an Order was when it was made, for the site's order {@code orderNo}: the Order as Lemon Squeezy's API
   * answered it (its TLS and the account's key vouch for it, {@link LemonSqueezyQuery}), read exactly as its
   * order_created webhook would have been had the checkout carried {@code orderNo} in its custom data. The API carries
   * none: the site vouched for the tie by keeping the Order's id and identifier in orders.columns.platform_ref, which
   * the query checked. So the same trade, amount, currency rule and key as the webhook's, which is then a duplicate.
   * An Order that took the buyer's money is read as paid whatever its status says now (a refund since changes what was
   * kept, not what was paid); any other (pending, failed, fraudulent) is read as it is, a payment of none: nothing.
   *
   * @throws RejectedNotification WRONG_MERCHANT for another store's Order, or test money on a live instance; another
   *                              reason for a field that cannot be read
   */
  NotifyEvent payment(JsonObject order, String orderNo) throws RejectedNotification {
    JsonObject paid = order.copy();
    if (!(paid.getValue("attributes") instanceof JsonObject attributes)) {
      throw RejectedNotification.malformed("data.attributes is missing");
    }
    if (TOOK_MONEY.contains(attributes.getValue("status"))) {
      attributes.put("status", PAID);
    }
    JsonObject event = new JsonObject().put("meta", new JsonObject().put("event_name", ORDER_CREATED)
        .put("custom_data", new JsonObject().put("order_no", orderNo))).put("data", paid);
    try {
      return normalise(event, null);
    } catch (ClassCastException e) { // a field of another JSON type than Lemon Squeezy's
      throw RejectedNotification.malformed("unexpected JSON structure: " + e.getMessage());
    }
  }

  /**
   * An Order of the store's list (Lemon Squeezy's API, {@link LemonSqueezyOrders}), which names no order of the site:
   * one that took the buyer's money (paid, or refunded in part since) is a payment whose order_created webhook may
   * never have booked it, thrown as {@link Problem#LISTED_WITHOUT_ORDER} (recorded for a human only while no payment
   * holds its trade); any other books nothing.
   *
   * @throws RejectedNotification WRONG_MERCHANT for another store's Order, or test money on a live instance
   */
  NotifyEvent listed(JsonObject order) throws RejectedNotification {
    JsonObject attributes = order.getValue("attributes") instanceof JsonObject a ? a : new JsonObject();
    signature.requireOurs(new JsonObject(), attributes, true);
    String status = attributes.getValue("status") instanceof String s ? s : "";
    if (!HOLDS_MONEY.contains(status)) {
      return ignored("listed order status " + Ids.printable(status));
    }
    String trade = id("data.id", order.getValue("id") instanceof String i ? i : null);
    long total = cents(attributes, "total");
    Object number = attributes.getValue("order_number");
    String identifier = attributes.getValue("identifier") instanceof String i && UUID.matcher(i).matches() ? i
        : "<its identifier>";
    throw new UnbookableNotification(Problem.LISTED_WITHOUT_ORDER, Platform.LEMONSQUEEZY, trade, null, trade, total,
        "Lemon Squeezy order " + (number instanceof Number n ? "#" + n + " " : "") + "(id " + trade + ", "
            + Money.format(total) + " " + Ids.printable(attributes.getValue("currency")) + ", made "
            + Ids.printable(attributes.getValue("created_at")) + ") took the buyer's money (" + status
            + "), and Lemon Squeezy's list of orders names no order of yours: if its order_created webhook never"
            + " reached paynotify, resend it (Settings → Webhooks, the webhook's recent deliveries), which books it, or"
            + " keep " + trade + ":" + identifier + " in orders.columns.platform_ref of the order it paid, and recovery"
            + " books it");
  }

  private NotifyEvent normalise(JsonObject event, String headerName) throws RejectedNotification {
    JsonObject meta = event.getJsonObject("meta", new JsonObject());
    JsonObject data = event.getJsonObject("data", new JsonObject());
    JsonObject attributes = data.getJsonObject("attributes", new JsonObject());
    String name = meta.getString("event_name", "");
    if (headerName != null && !headerName.equals(name)) { // the header is unsigned: the body's name is followed
      LOG.warn("lemonsqueezy: {} '{}' is not the signed meta.event_name '{}', which is followed",
          LemonSqueezySignature.EVENT_HEADER, Ids.printable(headerName), Ids.printable(name));
    }
    boolean test = signature.requireOurs(meta, attributes, name.equals(ORDER_CREATED) || name.equals(ORDER_REFUNDED));
    NotifyEvent e = switch (name) {
      case ORDER_CREATED -> payment(meta, data, attributes);
      case ORDER_REFUNDED -> refund(meta, data, attributes);
      default -> ignored(name.isEmpty() ? "(no meta.event_name)" : Ids.printable(name));
    };
    return test ? e.inTestMode() : e;
  }

  /** A new Order: paid now, or pending, failed or fraudulent (booking nothing). */
  private NotifyEvent payment(JsonObject meta, JsonObject data, JsonObject attributes) throws RejectedNotification {
    String status = attributes.getString("status", "");
    if (!status.equals(PAID)) {
      return ignored(ORDER_CREATED + " status " + Ids.printable(status));
    }
    String trade = id("data.id", data.getString("id"));
    long total = cents(attributes, "total");
    String orderNo = orderNo(meta);
    if (orderNo == null) {
      throw new UnbookableNotification(Problem.PAYMENT_WITHOUT_ORDER, Platform.LEMONSQUEEZY, trade, null, trade,
          total, "Lemon Squeezy order " + trade + " of " + Money.format(total) + " " + Ids.printable(attributes
              .getString("currency")) + " names no order (no meta.custom_data.order_no: the checkout was made"
              + " without checkout_data.custom.order_no)");
    }
    NotifyEvent e = new NotifyEvent(Platform.LEMONSQUEEZY, EventKind.PAYMENT, id("meta.custom_data.order_no", orderNo),
        trade, total, PlatformTime.paidAt("data.attributes.created_at", attributes.getString("created_at"),
            PlatformTime.Form.RFC_3339), status);
    return inCurrency(e.withDetail(detail(attributes)), attributes);
  }

  /**
   * An Order refunded, in part or in full. Its refunded_amount is the total refunded so far (as Alipay's
   * refund_fee), and Lemon Squeezy gives a refund no id of its own: booked as cumulative under
   * {@code <order id>@<total>}, so that a redelivery is a duplicate and two refunds arriving in either order end
   * with the larger total, never their sum.
   */
  private NotifyEvent refund(JsonObject meta, JsonObject data, JsonObject attributes) throws RejectedNotification {
    String status = attributes.getString("status", "");
    if (!TOOK_MONEY.contains(status)) {
      return ignored(ORDER_REFUNDED + " status " + Ids.printable(status));
    }
    String trade = id("data.id", data.getString("id"));
    long total = cents(attributes, "refunded_amount");
    if (total == 0) {
      return ignored(ORDER_REFUNDED + " with refunded_amount 0");
    }
    NotifyEvent.Refund refund = new NotifyEvent.Refund(id("refund", trade + "@" + total), NotifyEvent.Scope.PLATFORM,
        true, PlatformTime.parseOrNull(attributes.getString("refunded_at")));
    return inCurrency(NotifyEvent.refund(Platform.LEMONSQUEEZY, Ids.optional("order_no", orderNo(meta)), trade, total,
        status, refund), attributes);
  }

  /** The site's order the checkout carried ({@code checkout_data.custom.order_no}), or null when none. */
  private static String orderNo(JsonObject meta) throws RejectedNotification {
    // a site may pass a number in the checkout's JSON: read as it is written
    return Ids.orderNumber("meta.custom_data.order_no",
        meta.getJsonObject("custom_data", new JsonObject()).getValue("order_no"));
  }

  /** What the payment's row keeps: Lemon Squeezy's order number and UUID, and the total in USD (never booked). */
  private static String detail(JsonObject attributes) {
    JsonObject detail = new JsonObject();
    for (String field : new String[] {"order_number", "total_usd"}) {
      Object value = attributes.getValue(field);
      if (value instanceof Integer || value instanceof Long) {
        detail.put(field, value);
      }
    }
    Object identifier = attributes.getValue("identifier");
    if (identifier instanceof String uuid && UUID.matcher(uuid).matches()) {
      detail.put("identifier", uuid);
    }
    return detail.isEmpty() ? null : detail.encode();
  }

  /** Paid in another currency than the site's (Lemon Squeezy charges buyers in theirs): booked, never converted. */
  private NotifyEvent inCurrency(NotifyEvent e, JsonObject attributes) throws RejectedNotification {
    String paid = attributes.getString("currency");
    if (paid == null || paid.isEmpty()) {
      throw RejectedNotification.malformed("data.attributes.currency is missing");
    }
    paid = paid.toUpperCase(Locale.ROOT);
    return paid.equals(currency) ? e : e.inForeignCurrency(Ids.printable(paid));
  }

  /** Integer cents in the order's currency, as Lemon Squeezy sends them; never scaled. */
  private static long cents(JsonObject attributes, String field) throws RejectedNotification {
    return Money.minorUnits("data.attributes." + field, attributes.getValue(field));
  }

  private static String id(String field, String value) throws RejectedNotification {
    return Ids.require(Map.of(field, value == null ? "" : value), field);
  }

  /** Genuine, books nothing: 200 so Lemon Squeezy stops retrying. */
  private static NotifyEvent ignored(String status) {
    return new NotifyEvent(Platform.LEMONSQUEEZY, EventKind.NONE, null, null, 0, null, status);
  }

  /**
   * A signed event that cannot be read: the anomaly names the Order and its event ({@code <id>:<event>}, and a
   * refund's running total, {@code @<refunded_amount>}: so that an order's two events, or two refunds, are two
   * anomalies and a redelivery none more) and the site's order where readable.
   */
  private static UnbookableNotification unreadable(JsonObject event, String why) {
    String trade = null;
    String orderNo = null;
    String name = null;
    String total = "";
    try {
      trade = Ids.optional("data.id", event.getJsonObject("data").getString("id"));
      name = Ids.optional("event_name", event.getJsonObject("meta").getString("event_name"));
      Object refunded = event.getJsonObject("data").getJsonObject("attributes").getValue("refunded_amount");
      total = ORDER_REFUNDED.equals(name) && (refunded instanceof Integer || refunded instanceof Long)
          ? "@" + refunded : "";
      orderNo = Ids.optional("order_no", orderNo(event.getJsonObject("meta")));
    } catch (RuntimeException | RejectedNotification e) { // no event, or a shape it never sends: what was read
    }
    return new UnbookableNotification(Problem.UNREADABLE, Platform.LEMONSQUEEZY,
        trade == null ? null : trade + ":" + (name == null ? "?" : name) + total, orderNo, trade, null,
        "Lemon Squeezy signed " + (name == null ? "an event" : name) + (trade == null ? "" : " of order " + trade)
            + (orderNo == null ? "" : " for order " + orderNo) + ", but it cannot be read: " + why);
  }
}
