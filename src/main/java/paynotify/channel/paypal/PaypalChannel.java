package paynotify.channel.paypal;

import io.vertx.core.Future;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.EventKind;
import paynotify.channel.FormBody;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;

/**
 * PayPal Instant Payment Notification ({@code POST /notify/paypal}, form-urlencoded). An IPN carries
 * no signature: PayPal itself says whether it sent it ({@link PaypalIpnSignature}, after the cheap checks
 * on the raw body of its {@code IpnPrecheck}), and only then are its fields read. A verified IPN is never
 * refused: what cannot be booked becomes an anomaly ({@link UnbookableNotification}), what is not ours
 * to book is ignored, both answered 200.
 */
public final class PaypalChannel implements NotifyChannel {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/paypal";

  private static final Logger LOG = LoggerFactory.getLogger(PaypalChannel.class);

  /** IPN's default charset: the body names another one in {@code charset} (PayPal profile setting). */
  private static final Charset DEFAULT_CHARSET = Charset.forName("windows-1252");

  /** payment_date, e.g. {@code 10:20:30 Nov 30, 2026 PST}: PayPal's own clock, Pacific time. */
  private static final DateTimeFormatter PAYMENT_DATE =
      DateTimeFormatter.ofPattern("H:mm:ss MMM d, yyyy z", Locale.US);

  private static final Reply SUCCESS = new Reply(200, null, ""); // PayPal only looks at the 200
  private static final Door DOOR = new Door("paypal", Platform.PAYPAL, PATH, SUCCESS);

  /** Where the site puts its order number in the button or the API call. */
  public enum OrderField { INVOICE, CUSTOM }

  private final String currency;
  private final OrderField orderField;
  private final boolean sandbox;
  private final URI verifyUrl;
  private final PaypalIpnSignature signature;

  @Override
  public Door door() {
    return DOOR;
  }

  /**
   * @param receiverEmail checked (ignoring ASCII case) when not null
   * @param receiverId    checked when not null; at least one of the two is set
   * @param currency      the site's currency (e.g. USD); a payment in another is booked as an anomaly
   * @param sandbox       PayPal's sandbox (test money): test IPNs accepted, every event {@link NotifyEvent#inTestMode()}
   */
  public PaypalChannel(String receiverEmail, String receiverId, String currency, OrderField orderField,
      boolean sandbox, URI verifyUrl, long verifyTimeoutMs) {
    if (receiverEmail == null && receiverId == null) {
      throw new IllegalArgumentException("receiver_email or receiver_id is needed");
    }
    this.currency = currency.toUpperCase(Locale.ROOT);
    this.orderField = orderField;
    this.sandbox = sandbox;
    this.verifyUrl = verifyUrl;
    this.signature = new PaypalIpnSignature(new IpnPrecheck(receiverEmail, receiverId, sandbox), verifyUrl,
        verifyTimeoutMs);
  }

  /** Where IPNs are verified. */
  public URI verifyUrl() {
    return verifyUrl;
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    byte[] body = request.body().getBytes();
    return signature.verify(body).compose(kind -> {
      try {
        NotifyEvent event = read(kind, body);
        return Future.succeededFuture(sandbox ? event.inTestMode() : event);
      } catch (RuntimeException e) { // UnbookableNotification, or a bug
        return Future.failedFuture(e);
      }
    });
  }

  /** The fields of an IPN PayPal has VERIFIED: whatever is wrong with them now is an anomaly, not a refusal. */
  NotifyEvent read(IpnKind kind, byte[] body) {
    String orderKey = orderField.name().toLowerCase(Locale.ROOT);
    try {
      Map<String, String> params = FormBody.decodeVerified(body, charsetOf(body));
      NotifyEvent event = switch (kind) {
        case PAYMENT -> payment(params, orderKey);
        case REFUND -> refund(params, params.get("payment_status"), orderKey);
        case CANCELED_REVERSAL -> throw canceledReversal(params, orderKey);
        // Pending, Denied, ...: the buyer's money did not (yet) reach us. A later Completed of the same
        // txn_id is another event (another key) and is booked then.
        case NOT_YET -> new NotifyEvent(Platform.PAYPAL, EventKind.NONE, optionalId(params, orderKey),
            optionalId(params, "txn_id"), 0, null, params.get("payment_status"));
        case NOT_BOOKED -> notBooked(params, orderKey);
      };
      String paidCurrency = params.getOrDefault("mc_currency", "").toUpperCase(Locale.ROOT);
      return event.kind() != EventKind.NONE && !paidCurrency.equals(currency) ? event.inForeignCurrency(paidCurrency)
          : event;
    } catch (RejectedNotification e) {
      String txn = Ids.optional("txn_id", IpnPrecheck.field(body, "txn_id"));
      String orderNo = Ids.optional(orderKey, IpnPrecheck.field(body, orderKey));
      throw new UnbookableNotification(Problem.UNREADABLE, Platform.PAYPAL, txn, orderNo, txn, null,
          "PayPal VERIFIED this IPN" + (orderNo == null ? "" : " for order " + orderNo) + ", but it cannot be read: "
              + e.getMessage());
    }
  }

  private NotifyEvent payment(Map<String, String> params, String orderKey) throws RejectedNotification {
    String txn = Ids.require(params, "txn_id");
    long cents = Money.yuanToCents("mc_gross", params.get("mc_gross"));
    if (params.getOrDefault(orderKey, "").isEmpty()) {
      throw new UnbookableNotification(Problem.PAYMENT_WITHOUT_ORDER, Platform.PAYPAL, txn, null, txn, cents,
          "PayPal payment " + txn + " of " + Money.format(cents) + " " + Ids.printable(params.get("mc_currency"))
              + " names no order (" + orderKey + " is empty: paypal.order_field)");
    }
    return new NotifyEvent(Platform.PAYPAL, EventKind.PAYMENT, Ids.require(params, orderKey), txn, cents,
        paidAt(params.get("payment_date"), txn), "Completed");
  }

  /**
   * A type paynotify does not book: genuine, nothing for us (a Mass Pay this merchant sent), unless it is a
   * Completed payment to us naming one of our orders (a subscription's monthly payment, a reference
   * transaction): not booked as the order's payment (the next month's would be a second payment), but
   * real money a human must hear of. The precheck refused a receiver that is not ours.
   */
  private static NotifyEvent notBooked(Map<String, String> params, String orderKey) throws RejectedNotification {
    String type = Ids.printable(params.getOrDefault("txn_type", ""));
    boolean toUs = params.containsKey("receiver_email") || params.containsKey("receiver_id");
    if ("Completed".equals(params.get("payment_status")) && toUs && !params.getOrDefault(orderKey, "").isEmpty()) {
      String txn = Ids.require(params, "txn_id");
      long cents = Money.yuanToCents("mc_gross", params.get("mc_gross"));
      throw new UnbookableNotification(Problem.UNBOOKED_PAYMENT, Platform.PAYPAL, txn,
          optionalId(params, orderKey), txn, cents, "PayPal payment " + txn + " of " + Money.format(cents) + " "
              + Ids.printable(params.get("mc_currency")) + " for order " + Ids.printable(params.get(orderKey))
              + " is of txn_type " + type + ", which paynotify does not book");
    }
    return new NotifyEvent(Platform.PAYPAL, EventKind.NONE, null, optionalId(params, "txn_id"), 0, null,
        "txn_type " + type);
  }

  /** The chargeback of parent_txn_id was decided for the merchant: the money is back, the order says refunded. */
  private static UnbookableNotification canceledReversal(Map<String, String> params, String orderKey)
      throws RejectedNotification {
    String parent = Ids.require(params, "parent_txn_id");
    String gross = params.getOrDefault("mc_gross", "");
    long cents = Money.yuanToCents("mc_gross", gross.startsWith("-") ? gross.substring(1) : gross);
    return new UnbookableNotification(Problem.CHARGEBACK_REVERSED, Platform.PAYPAL, Ids.require(params, "txn_id"),
        optionalId(params, orderKey), parent, cents, "PayPal Canceled_Reversal " + params.get("txn_id") + ": the"
            + " chargeback of trade " + parent + " was decided for you, " + Money.format(cents) + " came back");
  }

  /**
   * A refund or a reversal (chargeback) of the trade {@code parent_txn_id}: mc_gross is minus this
   * refund's own amount (not a running total), and its own txn_id names it across PayPal.
   */
  private static NotifyEvent refund(Map<String, String> params, String status, String orderKey)
      throws RejectedNotification {
    String parent = Ids.require(params, "parent_txn_id");
    String gross = params.getOrDefault("mc_gross", "");
    if (!gross.startsWith("-")) {
      throw RejectedNotification.malformed(status + " without a negative mc_gross: '" + Ids.printable(gross) + "'");
    }
    long cents = Money.yuanToCents("mc_gross", gross.substring(1));
    return NotifyEvent.refund(Platform.PAYPAL, optionalId(params, orderKey), parent, cents, status,
        new NotifyEvent.Refund(Ids.require(params, "txn_id"), NotifyEvent.Scope.PLATFORM, false,
            paymentDateOrNull(params.get("payment_date"))));
  }

  /** An id when present and well-formed, else null (events that book nothing, refunds without an order). */
  private static String optionalId(Map<String, String> params, String field) {
    return Ids.optional(field, params.get(field));
  }

  /** payment_date in Beijing time; now when PayPal sent none or one we cannot read (said in the log). */
  private static LocalDateTime paidAt(String value, String txnId) {
    LocalDateTime parsed = paymentDateOrNull(value);
    if (parsed == null) {
      LOG.warn("paypal txn {}: payment_date '{}' unreadable, booked with the time of receipt",
          Ids.printable(txnId), Ids.printable(value));
      return PlatformTime.now();
    }
    return parsed;
  }

  static LocalDateTime paymentDateOrNull(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return ZonedDateTime.parse(value.trim(), PAYMENT_DATE).withZoneSameInstant(PlatformTime.BEIJING)
          .toLocalDateTime();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The body's {@code charset} field (ASCII, so readable before decoding), windows-1252 when absent. */
  private static Charset charsetOf(byte[] body) throws RejectedNotification {
    String raw = FormBody.rawValue(body, "charset");
    if (raw == null || raw.isEmpty()) {
      return DEFAULT_CHARSET;
    }
    try {
      return Charset.forName(raw);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw RejectedNotification.malformed("unsupported charset '" + Ids.printable(raw) + "'");
    }
  }

  @Override
  public Reply failure(int status, String reason) {
    return new Reply(status, "text/plain", reason);
  }
}
