package paynotify.channel.stripe;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
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
 * Stripe webhooks ({@code POST /notify/stripe}, JSON events signed as {@link StripeSignature} says).
 * The trade is the PaymentIntent ({@code pi_...}): a Checkout Session's events and its PaymentIntent's
 * are one payment, booked once. Stripe stops retrying on any 2xx and retries anything else.
 */
public final class StripeChannel implements NotifyChannel.JsonReplies {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/stripe";

  private static final Reply SUCCESS = new Reply(200, "application/json", "{\"received\":true}");
  private static final Door DOOR = new Door("stripe", Platform.STRIPE, PATH, SUCCESS);

  private final StripeSignature signature;
  private final String currency;

  @Override
  public Door door() {
    return DOOR;
  }

  /**
   * @param secrets  the endpoint's signing secrets ({@code whsec_...}), two while one is rolled
   * @param currency the site's currency, lower-case ISO code (e.g. {@code usd})
   * @param testMode test-mode events (livemode false) are accepted, as {@link NotifyEvent#inTestMode()}
   */
  public StripeChannel(List<String> secrets, Duration tolerance, String currency, boolean testMode, Clock clock) {
    this.signature = new StripeSignature(secrets, tolerance, testMode, clock);
    this.currency = currency.toLowerCase(Locale.ROOT);
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    byte[] body = request.body().getBytes();
    signature.verify(request.headers().get(StripeSignature.HEADER), body);
    // Signed, so Stripe's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    JsonObject event;
    try {
      event = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      throw unreadable(null, "the body is not a JSON object");
    }
    return read(event);
  }

  /**
   * A genuine event, normalised: one the webhook's signature vouched for, or one paynotify read from Stripe's
   * API itself with the account's key over TLS ({@link StripeEvents}, an event whose delivery
   * failed). What cannot be read is an anomaly for a human; a connected account's or test money (on a live
   * instance) is refused.
   */
  public NotifyEvent read(JsonObject event) throws RejectedNotification {
    try {
      return normalise(event);
    } catch (ClassCastException e) { // a field of another JSON type than Stripe's
      throw unreadable(event, "unexpected JSON structure: " + e.getMessage());
    } catch (RejectedNotification e) {
      if (e.reason() == Reason.WRONG_MERCHANT) { // not this endpoint's money: refused as such
        throw e;
      }
      throw unreadable(event, e.getMessage());
    }
  }

  private static UnbookableNotification unreadable(JsonObject event, String why) {
    String reference = event == null || !(event.getValue("id") instanceof String) ? null : optionalId(event, "id");
    String orderNo = event == null ? null : namedOrder(event);
    return new UnbookableNotification(Problem.UNREADABLE, Platform.STRIPE, reference, orderNo, null, null,
        "Stripe signed event " + (reference == null ? "(no id)" : reference) + (orderNo == null ? "" : " for order "
            + orderNo) + ", but it cannot be read: " + why);
  }

  /** The order an unreadable event names where it is readable (client_reference_id, metadata.order_no), else null. */
  private static String namedOrder(JsonObject event) {
    try {
      JsonObject object = event.getJsonObject("data").getJsonObject("object");
      String orderNo = object.getString("client_reference_id");
      return Ids.optional("order", orderNo != null ? orderNo
          : object.getJsonObject("metadata", new JsonObject()).getString("order_no"));
    } catch (RuntimeException e) { // a shape Stripe never sends (no data, a string for an object): none named
      return null;
    }
  }

  private NotifyEvent normalise(JsonObject event) throws RejectedNotification {
    signature.requireOurs(event);
    boolean test = Boolean.FALSE.equals(event.getBoolean("livemode"));
    NotifyEvent normalised = normalise(event.getString("type", ""), event);
    return test ? normalised.inTestMode() : normalised;
  }

  private NotifyEvent normalise(String type, JsonObject event) throws RejectedNotification {
    JsonObject object = event.getJsonObject("data", new JsonObject()).getJsonObject("object", new JsonObject());
    // When it happened (the payment completed, the refund was made): the event's time. The object's own
    // created is when the Session or PaymentIntent was opened, possibly long before the buyer paid.
    LocalDateTime at = beijing(event.getValue("created") != null ? event : object);
    return switch (type) {
      case "checkout.session.completed", "checkout.session.async_payment_succeeded" -> session(type, object, at);
      case "payment_intent.succeeded" -> paymentIntent(type, object, at);
      case "charge.refunded" -> refund(type, object, at);
      case "charge.refund.updated", "refund.updated", "refund.failed" -> refundUpdated(type, object);
      default -> type.startsWith("charge.dispute.") ? dispute(type, object)
          : ignored(type.isEmpty() ? "(no type)" : Ids.printable(type));
    };
  }

  /** A dispute (chargeback) opened, changed or closed: money held or taken back by the bank, for a human. */
  private static NotifyEvent dispute(String type, JsonObject dispute) throws RejectedNotification {
    String id = optionalId(dispute, "id");
    throw new UnbookableNotification(Problem.DISPUTE, Platform.STRIPE, id == null ? null : id + ":" + type,
        null, optionalId(dispute, "payment_intent"), amount(dispute, "amount"), type + " " + id + " ("
            + Ids.printable(dispute.getString("reason")) + ", " + Ids.printable(dispute.getString("status")) + ")");
  }

  /**
   * A refund that failed or was canceled after charge.refunded counted it: the buyer did not get the money
   * back, the charge's amount_refunded goes down, and the order (refunded by the larger total) must be looked at.
   */
  private static NotifyEvent refundUpdated(String type, JsonObject refund) throws RejectedNotification {
    String status = refund.getString("status", "");
    if (!status.equals("failed") && !status.equals("canceled")) {
      return ignored(type + " status " + Ids.printable(status));
    }
    String id = optionalId(refund, "id");
    throw new UnbookableNotification(Problem.REFUND_FAILED, Platform.STRIPE, id, null,
        optionalId(refund, "payment_intent"), amount(refund, "amount"), "refund " + id + " " + status
            + " (" + Ids.printable(refund.getString("failure_reason")) + ")");
  }

  /** A Checkout Session: paid now, or later (async_payment_succeeded) for delayed methods. */
  private NotifyEvent session(String type, JsonObject s, LocalDateTime at) throws RejectedNotification {
    String paymentStatus = s.getString("payment_status", "");
    if (!paymentStatus.equals("paid")) { // unpaid: async_payment_succeeded follows; no_payment_required: no money
      return ignored(type + " payment_status " + Ids.printable(paymentStatus));
    }
    if (s.getString("payment_intent") == null) { // subscription mode: invoices, not booked here
      return ignored(type + " without payment_intent (mode " + Ids.printable(s.getString("mode")) + ")");
    }
    JsonObject metadata = s.getJsonObject("metadata", new JsonObject());
    String orderNo = s.getString("client_reference_id");
    if (orderNo == null || orderNo.isEmpty()) {
      orderNo = metadata.getString("order_no");
    }
    Map<String, String> ids = new HashMap<>();
    ids.put("client_reference_id (or metadata.order_no)", orderNo);
    ids.put("payment_intent", s.getString("payment_intent"));
    String trade = Ids.require(ids, "payment_intent");
    if (orderNo == null || orderNo.isEmpty()) {
      // Its PaymentIntent may name the order (payment_intent_data.metadata.order_no) and book the trade,
      // before or after this event: a human is told only if nothing has booked it after the wait.
      throw new UnbookableNotification(Problem.INTENT_WITHOUT_ORDER, Platform.STRIPE, trade, null, trade,
          amount(s, "amount_total"), type + " of " + trade + " names no order (neither client_reference_id nor"
              + " metadata.order_no)");
    }
    return payment(Ids.require(ids, "client_reference_id (or metadata.order_no)"), trade, amount(s, "amount_total"),
        at, type, s);
  }

  /**
   * A PaymentIntent. Checkout does not copy the Session's client_reference_id or metadata to it: without
   * metadata.order_no (set through payment_intent_data.metadata) it names no order, and the Session's
   * checkout.session.completed, the same trade, books it. A site that creates PaymentIntents itself and
   * forgot the metadata has no Session: then the payment must reach a human (booking waits for the Session).
   */
  private NotifyEvent paymentIntent(String type, JsonObject pi, LocalDateTime at) throws RejectedNotification {
    String orderNo = pi.getJsonObject("metadata", new JsonObject()).getString("order_no");
    if (orderNo == null || orderNo.isEmpty()) {
      String trade = Ids.require(Map.of("id", pi.getString("id", "")), "id");
      throw new UnbookableNotification(Problem.INTENT_WITHOUT_ORDER, Platform.STRIPE, trade, null, trade,
          amount(pi, "amount_received"), type + " without metadata.order_no");
    }
    Map<String, String> ids = Map.of("metadata.order_no", orderNo, "id", pi.getString("id", ""));
    return payment(Ids.require(ids, "metadata.order_no"), Ids.require(ids, "id"), amount(pi, "amount_received"),
        at, type, pi);
  }

  private NotifyEvent payment(String orderNo, String trade, long amount, LocalDateTime at, String type,
      JsonObject object) throws RejectedNotification {
    return inCurrency(new NotifyEvent(Platform.STRIPE, EventKind.PAYMENT, orderNo, trade, amount, at, type),
        object);
  }

  /**
   * A Charge refunded, fully or in part. Its amount_refunded is the total refunded on it so far (as
   * Alipay's refund_fee): booked as cumulative, under the id of the newest refund in refunds.data
   * (re_..., unique on Stripe). Totals cannot double count whichever of a charge's events arrive, in any
   * order, and the largest is what the order is refunded by. Since API version 2022-11-15 the Charge
   * carries no refunds list: then the key is the charge with its total ({@code ch_...@amount}). The
   * Charge names no order (Session metadata is not copied to it): the booked payment of its
   * payment_intent gives it, and before that payment the refund is pending.
   */
  private NotifyEvent refund(String type, JsonObject charge, LocalDateTime at) throws RejectedNotification {
    String trade = charge.getString("payment_intent");
    if (trade == null) { // a Charges-API charge: no PaymentIntent, so nothing of ours to refund
      return ignored(type + " of a charge without payment_intent");
    }
    long total = amount(charge, "amount_refunded");
    JsonObject newest = null;
    JsonArray refunds = charge.getJsonObject("refunds", new JsonObject()).getJsonArray("data", new JsonArray());
    for (int i = 0; i < refunds.size(); i++) {
      JsonObject r = refunds.getJsonObject(i);
      if (newest == null || r.getLong("created", 0L) > newest.getLong("created", 0L)) {
        newest = r; // the list is newest first; on equal times the first listed
      }
    }
    Map<String, String> ids = new HashMap<>();
    ids.put("payment_intent", trade);
    ids.put("refund", newest != null ? newest.getString("id") : charge.getString("id", "") + "@" + total);
    NotifyEvent.Refund refund = new NotifyEvent.Refund(Ids.require(ids, "refund"), NotifyEvent.Scope.PLATFORM, true,
        newest != null && newest.getValue("created") != null ? beijing(newest) : at);
    return inCurrency(NotifyEvent.refund(Platform.STRIPE, null, Ids.require(ids, "payment_intent"), total,
        type, refund), charge);
  }

  /** The id in {@code field} when it is a well-formed one, else null: then it names nothing. */
  private static String optionalId(JsonObject object, String field) {
    return Ids.optional(field, object.getString(field));
  }

  /** Genuine, books nothing: 200 so Stripe stops retrying. */
  private static NotifyEvent ignored(String status) {
    return new NotifyEvent(Platform.STRIPE, EventKind.NONE, null, null, 0, null, status);
  }

  /** Paid in another currency than the site's: booked, never marking the order paid. */
  private NotifyEvent inCurrency(NotifyEvent e, JsonObject object) throws RejectedNotification {
    String paid = object.getString("currency");
    if (paid == null || paid.isEmpty()) {
      throw RejectedNotification.malformed("currency is missing");
    }
    paid = paid.toLowerCase(Locale.ROOT);
    return paid.equals(currency) ? e : e.inForeignCurrency(Ids.printable(paid));
  }

  /** Minor units as Stripe sends them: cents for USD, yen for the zero-decimal JPY; never scaled. */
  private static long amount(JsonObject object, String field) throws RejectedNotification {
    return Money.minorUnits(field, object.getValue(field));
  }

  /** {@code created}, unix seconds, as Beijing wall-clock time: how paid_at is stored for every platform. */
  private static LocalDateTime beijing(JsonObject object) throws RejectedNotification {
    Object created = object.getValue("created");
    if (!(created instanceof Integer || created instanceof Long)) {
      throw RejectedNotification.malformed("created is not unix seconds");
    }
    try {
      return LocalDateTime.ofInstant(Instant.ofEpochSecond(((Number) created).longValue()), PlatformTime.BEIJING);
    } catch (DateTimeException e) {
      throw RejectedNotification.malformed("created " + created + " is not a time");
    }
  }
}
