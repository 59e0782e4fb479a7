package paynotify.channel.paddle;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
 * Paddle Billing webhooks ({@code POST /notify/paddle}, JSON events signed as {@link PaddleSignature} says). The
 * trade is the transaction ({@code txn_...}); its transaction.paid and transaction.completed are one payment under
 * one key, booked by whichever arrives first (Paddle does not promise their order). Refunds are adjustments, booked
 * once approved under their own {@code adj_...} id. Paddle retries anything but a 2xx within 5 s; what it gave up on
 * (or is still retrying) is fetched by recovery when an API key is given ({@link PaddleEvents}).
 */
public final class PaddleChannel implements NotifyChannel {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/paddle";

  private static final Reply SUCCESS = new Reply(200, null, ""); // Paddle only looks at the status
  /**
   * A transaction event carries every line item with its product and price (~2 KB each in paddle-node-sdk's
   * transaction-completed mock): a cart of 7 outgrows the default 16 KiB, and a 413 is retried to its end. 128 KiB
   * holds some 60 items and is still read whole before its signature is checked.
   */
  private static final int MAX_EVENT_BYTES = 128 * 1024;
  private static final Door DOOR = new Door("paddle", Platform.PADDLE, PATH, SUCCESS, MAX_EVENT_BYTES);
  /** A checkout (Paddle.js) or a transaction the site created: the payment of the order it names. */
  private static final Set<String> ORDER_ORIGINS = Set.of("web", "api");
  private static final Set<String> PAID = Set.of("paid", "completed");

  private final PaddleSignature signature;
  private final String currency;

  /**
   * @param secrets  the notification destination's secret keys ({@code pdl_ntfset_...}), several while rotated
   * @param currency the site's currency, ISO code (e.g. {@code USD})
   */
  public PaddleChannel(List<String> secrets, Duration tolerance, String currency, Clock clock) {
    this.signature = new PaddleSignature(secrets, tolerance, clock);
    this.currency = currency.toUpperCase(Locale.ROOT);
  }

  @Override
  public Door door() {
    return DOOR;
  }

  @Override
  public Reply failure(int status, String reason) {
    return new Reply(status, "text/plain", reason);
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    byte[] body = request.body().getBytes();
    try {
      signature.verify(request.headers().get(PaddleSignature.HEADER), body);
    } catch (RejectedNotification e) {
      throw e.reason() == Reason.STALE_TIMESTAMP ? outsideWindow(e, body) : e;
    }
    // Signed, so Paddle's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    JsonObject event;
    try {
      event = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      throw UnbookableNotification.unreadable(Platform.PADDLE, null, null, "the body is not a JSON object");
    }
    return read(event);
  }

  /**
   * A genuine event, normalised: one the webhook's signature vouched for, or one paynotify read from Paddle's API
   * itself with the account's key over TLS ({@link PaddleEvents}, a notification whose delivery failed). What cannot
   * be read is an anomaly for a human.
   */
  public NotifyEvent read(JsonObject event) throws RejectedNotification {
    try {
      return normalise(event);
    } catch (ClassCastException | RejectedNotification e) { // a field of another JSON type or form than Paddle's
      throw UnbookableNotification.unreadable(Platform.PADDLE, readable(event, "id"), readable(event, "order_no"),
          e.getMessage());
    }
  }

  /**
   * A genuine event refused for its ts alone, perhaps a retry after an outage: its refusal (logged at WARN and
   * listed as refused) names the event, never its body, so the owner can find it in Paddle's dashboard.
   */
  private static RejectedNotification outsideWindow(RejectedNotification e, byte[] body) {
    String id = null;
    String type = null;
    try {
      JsonObject event = new JsonObject(new String(body, StandardCharsets.UTF_8));
      id = Ids.optional("event_id", event.getValue("event_id") instanceof String s ? s : null);
      type = event.getValue("event_type") instanceof String s ? Ids.printable(s) : null;
    } catch (DecodeException ignored) { // signed, but no JSON: named as such
    }
    return new RejectedNotification(e.reason(), "Paddle event " + (id == null ? "(no event_id)" : id) + " ("
        + (type == null ? "no event_type" : type) + ") " + e.getMessage());
  }

  private NotifyEvent normalise(JsonObject event) throws RejectedNotification {
    String type = event.getString("event_type", "");
    JsonObject data = object(event, "data");
    return switch (type) {
      case "transaction.paid", "transaction.completed" -> transaction(type, data, occurredAt(event));
      case "adjustment.created", "adjustment.updated" -> adjustment(type, data, occurredAt(event));
      default -> ignored(type.isEmpty() ? "(no event_type)" : Ids.printable(type));
    };
  }

  /**
   * A transaction paid (transaction.paid) or processed (transaction.completed): grand_total, what the buyer was
   * charged after credits, for the order in custom_data.order_no. A subscription's later charges (renewals, a
   * change of plan or of card) carry the subscription's custom_data, so the first order's number again: real money,
   * but not that order's payment.
   */
  private NotifyEvent transaction(String type, JsonObject txn, LocalDateTime at) throws RejectedNotification {
    String trade = id(txn, "id", "data.id");
    String status = txn.getString("status", "");
    if (!PAID.contains(status)) {
      return ignored(type + " status " + Ids.printable(status));
    }
    JsonObject totals = object(object(txn, "details"), "totals");
    long amount = Money.cents("data.details.totals.grand_total", totals.getString("grand_total"));
    String paid = txn.getString("currency_code", "");
    String orderNo = orderNo(txn);
    String origin = txn.getString("origin", "");
    String what = "Paddle transaction " + trade + " of " + Money.format(amount) + " " + Ids.printable(paid);
    if (!ORDER_ORIGINS.contains(origin)) {
      if (orderNo == null) {
        return ignored(type + " origin " + Ids.printable(origin) + " naming no order");
      }
      throw new UnbookableNotification(Problem.UNBOOKED_PAYMENT, Platform.PADDLE, trade, orderNo, trade, amount,
          what + " for order " + orderNo + " has origin " + Ids.printable(origin) + ": a charge of the order's"
              + " subscription, not the order's payment (paynotify books transactions of origin web or api only)");
    }
    if (orderNo == null) {
      throw new UnbookableNotification(Problem.PAYMENT_WITHOUT_ORDER, Platform.PADDLE, trade, null, trade, amount,
          what + " names no order (custom_data.order_no)");
    }
    return inCurrency(new NotifyEvent(Platform.PADDLE, EventKind.PAYMENT, orderNo, trade, amount, at, type), paid);
  }

  /**
   * A refund, a chargeback or a credit on a transaction. A refund is booked once approved (Paddle approves most
   * within days; some are created approved), for its own totals.total, under its adj_ id: created and updated are
   * then the same refund. A chargeback is for a human; a credit moves no money back to the buyer's card.
   */
  private NotifyEvent adjustment(String type, JsonObject adj, LocalDateTime at) throws RejectedNotification {
    String id = id(adj, "id", "data.id");
    String action = adj.getString("action", "");
    String status = adj.getString("status", "");
    String trade = id(adj, "transaction_id", "data.transaction_id");
    JsonObject totals = object(adj, "totals");
    String total = totals.getString("total");
    String word = type + " " + Ids.printable(action) + " " + Ids.printable(status);
    return switch (action) {
      case "refund" -> switch (status) {
        case "approved" -> inCurrency(NotifyEvent.refund(Platform.PADDLE, null, trade,
            Money.cents("data.totals.total", total), word, new NotifyEvent.Refund(id, NotifyEvent.Scope.PLATFORM, false,
                at)), adj.getString("currency_code", totals.getString("currency_code", "")));
        case "reversed" -> throw new UnbookableNotification(Problem.REFUND_FAILED, Platform.PADDLE, id, null, trade,
            amountOrNull(total), "Paddle refund " + id + " of transaction " + trade + " was reversed after its approval");
        default -> ignored(word); // pending_approval: its approval follows; rejected: nothing went back
      };
      case "chargeback" -> throw new UnbookableNotification(Problem.DISPUTE, Platform.PADDLE, id, null, trade,
          amountOrNull(total), "Paddle chargeback " + id + " of transaction " + trade + " (" + Ids.printable(status)
              + "): the buyer's bank took the money back; Paddle, the merchant of record, answers the dispute");
      case "chargeback_reverse" -> throw new UnbookableNotification(Problem.DISPUTE, Platform.PADDLE, id, null, trade,
          amountOrNull(total), "Paddle chargeback of transaction " + trade + " reversed (" + id + "): decided for you,"
              + " the money is back with you");
      default -> ignored(word); // credit, credit_reverse, chargeback_warning, chargeback_warning_reverse
    };
  }

  /** custom_data.order_no as the site set it (a string, or a whole number Paddle.js passed as one), else null. */
  private static String orderNo(JsonObject txn) throws RejectedNotification {
    Object custom = txn.getValue("custom_data");
    String orderNo = Ids.orderNumber("data.custom_data.order_no",
        custom instanceof JsonObject c ? c.getValue("order_no") : null);
    return orderNo == null ? null : id(orderNo, "data.custom_data.order_no");
  }

  /** The object at {@code field}, empty when absent or null: what it lacks is then said by the field read from it. */
  private static JsonObject object(JsonObject parent, String field) {
    return parent.getValue(field) instanceof JsonObject o ? o : new JsonObject();
  }

  private static String id(JsonObject object, String field, String path) throws RejectedNotification {
    return id(object.getString(field), path);
  }

  private static String id(String value, String path) throws RejectedNotification {
    return Ids.require(Collections.singletonMap(path, value), path);
  }

  /** The id at data.{@code field} (or data.custom_data.order_no) of an unreadable event, where it is one. */
  private static String readable(JsonObject event, String field) {
    try {
      JsonObject data = event.getJsonObject("data");
      Object value = field.equals("order_no") ? data.getJsonObject("custom_data").getValue(field) : data.getValue(field);
      return Ids.optional(field, value instanceof String s ? s : null);
    } catch (RuntimeException e) { // no data, or a shape Paddle never sends: none named
      return null;
    }
  }

  private static Long amountOrNull(String total) {
    try {
      return Money.cents("data.totals.total", total);
    } catch (RejectedNotification e) {
      return null;
    }
  }

  /** Genuine, books nothing: 200 so Paddle stops retrying. */
  private static NotifyEvent ignored(String status) {
    return new NotifyEvent(Platform.PADDLE, EventKind.NONE, null, null, 0, null, status);
  }

  /** Paid in another currency than the site's (Paddle localises prices by country): booked, never converted. */
  private NotifyEvent inCurrency(NotifyEvent e, String paid) throws RejectedNotification {
    if (paid.isEmpty()) {
      throw RejectedNotification.malformed("data.currency_code is missing");
    }
    String code = paid.toUpperCase(Locale.ROOT);
    return code.equals(currency) ? e : e.inForeignCurrency(Ids.printable(code));
  }

  /** The event's occurred_at (RFC 3339, UTC) as Beijing wall-clock time: how paid_at is stored for every platform. */
  private static LocalDateTime occurredAt(JsonObject event) throws RejectedNotification {
    String at = event.getString("occurred_at");
    try {
      return LocalDateTime.ofInstant(Instant.parse(at == null ? "" : at), PlatformTime.BEIJING);
    } catch (DateTimeException e) {
      throw RejectedNotification.malformed("occurred_at '" + Ids.printable(at) + "' is not a time");
    }
  }
}
