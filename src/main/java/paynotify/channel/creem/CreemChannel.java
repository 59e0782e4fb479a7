package paynotify.channel.creem;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
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
 * Creem webhooks ({@code POST /notify/creem}): {@code {id, eventType, created_at, object}}, signed as
 * {@link CreemSignature} says. A checkout's paid order is booked for the site's order its {@code request_id} names
 * (set by the site in {@code POST /v1/checkouts}), else its {@code metadata.order_no}; the trade is the order
 * ({@code ord_...}). A refund is booked by its own id ({@code ref_...}) when it succeeded. Creem retries anything
 * but a 200 after 30 s, 1 min, 5 min and 1 h (docs {@code code/webhooks.mdx}).
 */
public final class CreemChannel implements NotifyChannel.JsonReplies {
  /** Where Creem sends webhooks. */
  public static final String PATH = "/notify/creem";
  /** The one live mode: the OpenAPI's EnvironmentMode also has test and sandbox, the docs' samples say local. */
  static final String LIVE = "prod";

  private static final Reply SUCCESS = new Reply(200, "application/json", "{\"received\":true}");
  private static final Door DOOR = new Door("creem", Platform.CREEM, PATH, SUCCESS);
  /** Before this many units, created_at is unix seconds (the SDK's tests), from it milliseconds (the docs). */
  private static final long MILLIS_FROM = 100_000_000_000L;

  private final CreemSignature signature;
  private final String currency;
  private final boolean testMode;

  /**
   * @param secret   the webhook secret of the endpoint (Developers → Webhooks)
   * @param currency the site's currency, ISO code (e.g. USD)
   * @param testMode events whose object is not in {@code prod} mode are accepted, as {@link NotifyEvent#inTestMode()}
   */
  public CreemChannel(String secret, String currency, boolean testMode) {
    this.signature = new CreemSignature(secret);
    this.currency = currency.toUpperCase(Locale.ROOT);
    this.testMode = testMode;
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
    signature.verify(request.headers().get(CreemSignature.HEADER),
        request.headers().contains(CreemSignature.STANDARD_WEBHOOKS), body);
    // Signed, so Creem's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    JsonObject event;
    try {
      event = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      throw unreadable(null, "the body is not a JSON object");
    }
    if (event.getValue("object") instanceof JsonObject object && !takes(object.getValue("mode"))) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT, "object.mode '" + Ids.printable(object.getValue("mode"))
          + "' is not prod, and this instance books live money (creem.test_mode: false): creem.webhook_secret_file"
          + " holds a Test Mode webhook's secret");
    }
    return read(event);
  }

  /**
   * Whether an object in {@code mode} is booked here: live money ({@code prod}) always, any other mode (Creem's Test
   * Mode) only with creem.test_mode, as test money.
   */
  boolean takes(Object mode) {
    return LIVE.equals(mode) || testMode;
  }

  /**
   * A genuine event whose object's mode this instance {@link #takes}, normalised: one the webhook's signature vouched
   * for, or a checkout paynotify read from Creem's API itself with the account's key over TLS ({@code CreemQuery},
   * as the {@code checkout.completed} it would have been sent). What cannot be read is an anomaly for a human.
   */
  NotifyEvent read(JsonObject event) throws RejectedNotification {
    if (!(event.getValue("object") instanceof JsonObject object)) {
      throw unreadable(event, "object is not a JSON object");
    }
    try {
      NotifyEvent normalised = normalise(event, object);
      return LIVE.equals(object.getValue("mode")) ? normalised : normalised.inTestMode();
    } catch (ClassCastException e) { // a field of another JSON type than Creem's
      throw unreadable(event, "unexpected JSON structure: " + e.getMessage());
    } catch (RejectedNotification e) {
      throw unreadable(event, e.getMessage());
    }
  }

  private NotifyEvent normalise(JsonObject event, JsonObject object) throws RejectedNotification {
    LocalDateTime at = beijing(event.getValue("created_at"), PlatformTime.now());
    String type = event.getValue("eventType") instanceof String s ? s : "";
    return switch (type) {
      case "checkout.completed" -> checkout(object, at);
      case "refund.created" -> refund(object, at);
      case "dispute.created" -> throw dispute(object);
      // subscription.*: a subscription's life; its first payment is the checkout's order, booked above
      default -> new NotifyEvent(Platform.CREEM, EventKind.NONE, null, null, 0, null,
          type.isEmpty() ? "(no eventType)" : Ids.printable(type));
    };
  }

  /**
   * A checkout completed: its order books when paid, for what the buyer paid (amount_paid, tax included; else
   * amount_due). Never order.amount: that is the price before tax and discount.
   */
  private NotifyEvent checkout(JsonObject checkout, LocalDateTime at) throws RejectedNotification {
    JsonObject order = checkout.getJsonObject("order");
    if (order == null) {
      throw RejectedNotification.malformed("object.order is missing");
    }
    String status = order.getString("status", "");
    if (!status.equals("paid")) {
      return new NotifyEvent(Platform.CREEM, EventKind.NONE, null, null, 0, null,
          "checkout.completed order status " + Ids.printable(status));
    }
    Map<String, String> ids = new HashMap<>();
    ids.put("object.order.id", order.getString("id"));
    String trade = Ids.require(ids, "object.order.id");
    long cents = cents(order, order.getValue("amount_paid") != null ? "amount_paid" : "amount_due");
    String orderNo = siteOrder(checkout);
    if (orderNo == null) {
      throw new UnbookableNotification(Problem.PAYMENT_WITHOUT_ORDER, Platform.CREEM, trade, null, trade, cents,
          "Creem order " + trade + " of " + Money.format(cents) + " " + Ids.printable(order.getValue("currency"))
              + " names no order (neither request_id nor metadata.order_no)");
    }
    ids.put("object.request_id (or metadata.order_no)", orderNo);
    NotifyEvent paid = new NotifyEvent(Platform.CREEM, EventKind.PAYMENT,
        Ids.require(ids, "object.request_id (or metadata.order_no)"), trade, cents, at, "paid")
        .withDetail(detail(checkout, order));
    return inCurrency(paid, order.getValue("currency"));
  }

  /** The site's order: request_id, which the site set creating the checkout; else metadata.order_no. */
  static String siteOrder(JsonObject checkout) throws RejectedNotification {
    String requestId = Ids.orderNumber("object.request_id", checkout.getValue("request_id"));
    if (requestId != null) {
      return requestId;
    }
    return checkout.getValue("metadata") instanceof JsonObject metadata
        ? Ids.orderNumber("object.metadata.order_no", metadata.getValue("order_no")) : null;
  }

  /**
   * What the payment's row keeps: the checkout ({@code ch_...}, which Creem's API is asked by), the order's
   * transaction when named (what a refund's transaction is compared with by a human), the price before tax and
   * the tax, so that an amount_mismatch of tax-exclusive prices reads as one.
   */
  private static String detail(JsonObject checkout, JsonObject order) {
    JsonObject detail = new JsonObject();
    String id = Ids.optional("id", text(checkout.getValue("id")));
    if (id != null) {
      detail.put("checkout", id);
    }
    String transaction = Ids.optional("transaction", text(order.getValue("transaction")));
    if (transaction != null) {
      detail.put("transaction", transaction);
    }
    for (String field : new String[] {"amount", "tax_amount"}) {
      if (order.getValue(field) instanceof Integer || order.getValue(field) instanceof Long) {
        detail.put(field, order.getValue(field));
      }
    }
    return detail.isEmpty() ? null : detail.encode();
  }

  /**
   * A refund created: booked when it succeeded, by its own id and its own amount (refund_amount; the transaction's
   * refunded_amount is the total). Any other status (pending, failed, canceled) is for a human: Creem sends no
   * event when a pending refund later succeeds (its event list has no refund.updated).
   */
  private NotifyEvent refund(JsonObject refund, LocalDateTime at) throws RejectedNotification {
    String status = refund.getString("status", "");
    String trade = orderId(refund);
    if (!status.equals("succeeded")) {
      String id = Ids.optional("id", text(refund.getValue("id")));
      throw new UnbookableNotification(Problem.UNBOOKED_REFUND, Platform.CREEM, id, null, trade,
          optionalCents(refund, "refund_amount"), "Creem refund " + (id == null ? "(no id)" : id) + " of order "
              + (trade == null ? "(not named)" : trade) + " was created " + Ids.printable(status)
              + ", not succeeded, and Creem sends no event when that changes: not booked");
    }
    String another = notTheOrdersPayment(refund);
    if (another != null) {
      String id = Ids.optional("id", text(refund.getValue("id")));
      throw new UnbookableNotification(Problem.UNBOOKED_REFUND, Platform.CREEM, id, null, trade,
          optionalCents(refund, "refund_amount"), "Creem refund " + (id == null ? "(no id)" : id) + " of order "
              + (trade == null ? "(not named)" : trade) + " succeeded, but " + another + ": not booked against the"
              + " order's payment; if it refunds that payment, book it by hand");
    }
    Map<String, String> ids = new HashMap<>();
    ids.put("object.id", text(refund.getValue("id")));
    ids.put("the refund's order id", trade);
    NotifyEvent.Refund booked = new NotifyEvent.Refund(Ids.require(ids, "object.id"), NotifyEvent.Scope.PLATFORM,
        false, beijing(refund.getValue("created_at"), at));
    return inCurrency(NotifyEvent.refund(Platform.CREEM, null, Ids.require(ids, "the refund's order id"),
        cents(refund, "refund_amount"), status, booked), refund.getValue("refund_currency"));
  }

  /**
   * Why the refunded transaction may not be the one that paid the order (booked under its ord_ id), else null. A
   * subscription's renewals are transactions of their own, and their refunds may name the first order's ord_.
   * Creem names the order's own transaction only in order.transaction, which its types make optional (webhook-types
   * entities.ts) and its docs' samples leave out. So a refund is the order's payment's when its expanded order names
   * this transaction, or when no subscription is involved (a one-time order has one transaction); else a human says.
   */
  private static String notTheOrdersPayment(JsonObject refund) {
    Object transaction = refund.getValue("transaction");
    String refunded = transactionId(transaction);
    String first = refund.getValue("order") instanceof JsonObject order ? text(order.getValue("transaction")) : null;
    if (first != null) {
      return first.equals(refunded) ? null
          : "its transaction " + Ids.printable(refunded) + " is not the order's own, " + Ids.printable(first);
    }
    boolean subscription = refund.getValue("subscription") != null
        || transaction instanceof JsonObject t && t.getValue("subscription") != null;
    return subscription ? "its transaction " + Ids.printable(refunded) + " is a subscription's, and Creem does not say"
        + " whether it is the order's first payment or a renewal" : null;
  }

  /** A dispute opened by the buyer's bank: money held or taken back, for a human. */
  private static UnbookableNotification dispute(JsonObject dispute) {
    String id = Ids.optional("id", text(dispute.getValue("id")));
    String trade = orderId(dispute);
    Long cents = optionalCents(dispute, "amount");
    String disputed = transactionId(dispute.getValue("transaction"));
    // the order's payment, or one of its subscription's renewals: the transaction says which
    return new UnbookableNotification(Problem.DISPUTE, Platform.CREEM, id, null, trade, cents, "dispute.created "
        + (id == null ? "(no id)" : id) + " of order " + (trade == null ? "(not named)" : trade)
        + (disputed == null ? "" : ", transaction " + Ids.printable(disputed))
        + (cents == null ? "" : ", " + Money.format(cents) + " " + Ids.printable(dispute.getValue("currency"))));
  }

  /** A refund's or dispute's transaction's id: its {@code transaction}, expanded or not; null when not named. */
  private static String transactionId(Object transaction) {
    return text(transaction instanceof JsonObject t ? t.getValue("id") : transaction);
  }

  /** The order ({@code ord_...}) a refund or dispute is of: its order, expanded or not, else its transaction's. */
  private static String orderId(JsonObject object) {
    Object order = object.getValue("order");
    if (order instanceof JsonObject expanded) {
      order = expanded.getValue("id");
    } else if (order == null && object.getValue("transaction") instanceof JsonObject transaction) {
      order = transaction.getValue("order");
    }
    return Ids.optional("order", text(order));
  }

  /** Paid or refunded in another currency than the site's: booked, never marking the order paid. */
  private NotifyEvent inCurrency(NotifyEvent e, Object paid) throws RejectedNotification {
    String code = text(paid);
    if (code == null) {
      throw RejectedNotification.malformed("the currency is missing");
    }
    code = code.toUpperCase(Locale.ROOT);
    return code.equals(currency) ? e : e.inForeignCurrency(Ids.printable(code));
  }

  /** Cents, as Creem sends every amount ("in cents"), never scaled. */
  private static long cents(JsonObject object, String field) throws RejectedNotification {
    Long cents = optionalCents(object, field);
    if (cents == null) {
      throw RejectedNotification.malformed(field + " is not a whole number of cents");
    }
    return cents;
  }

  private static Long optionalCents(JsonObject object, String field) {
    Object value = object.getValue(field);
    return (value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= 0
        ? ((Number) value).longValue() : null;
  }

  /** A string, or the digits of a whole number (metadata values may be numbers); else null. */
  private static String text(Object value) {
    if (value instanceof String s) {
      return s.isEmpty() ? null : s;
    }
    return value instanceof Integer || value instanceof Long ? value.toString() : null;
  }

  /** A created_at (milliseconds; seconds in the SDK's tests) as Beijing wall-clock time, else {@code otherwise}. */
  private static LocalDateTime beijing(Object createdAt, LocalDateTime otherwise) {
    if (!(createdAt instanceof Integer || createdAt instanceof Long)) {
      return otherwise;
    }
    long n = ((Number) createdAt).longValue();
    try {
      return LocalDateTime.ofInstant(n < MILLIS_FROM ? Instant.ofEpochSecond(n) : Instant.ofEpochMilli(n),
          PlatformTime.BEIJING);
    } catch (DateTimeException e) {
      return otherwise;
    }
  }

  /** A signed event that cannot be read: recorded once per event (its evt_ id), with the order it names if any. */
  private static UnbookableNotification unreadable(JsonObject event, String why) {
    String id = event == null ? null : Ids.optional("id", text(event.getValue("id")));
    String orderNo = null;
    String trade = null;
    if (event != null && event.getValue("object") instanceof JsonObject object) {
      try {
        orderNo = Ids.optional("order", siteOrder(object));
      } catch (RejectedNotification e) { // a number JavaScript rounded: it names no order
      }
      trade = orderId(object);
    }
    return new UnbookableNotification(Problem.UNREADABLE, Platform.CREEM, id, orderNo, trade, null,
        "Creem signed event " + (id == null ? "(no id)" : id) + (orderNo == null ? "" : " for order " + orderNo)
            + ", but it cannot be read: " + why);
  }
}
