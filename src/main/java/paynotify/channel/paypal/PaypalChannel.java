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
import paynotify.channel.VerificationUnavailable;

/**
 * PayPal Instant Payment Notification ({@code POST /notify/paypal}, form-urlencoded). An IPN carries
 * no signature: PayPal itself says whether it sent it ({@link IpnVerifier}), and only then are its
 * fields read.
 */
public final class PaypalChannel implements NotifyChannel {
  private static final Logger LOG = LoggerFactory.getLogger(PaypalChannel.class);

  /** PayPal's live endpoint; the sandbox's is https://ipnpb.sandbox.paypal.com/cgi-bin/webscr. */
  public static final String LIVE_VERIFY_URL = "https://ipnpb.paypal.com/cgi-bin/webscr";

  /** IPN's default charset: the body names another one in {@code charset} (PayPal profile setting). */
  private static final Charset DEFAULT_CHARSET = Charset.forName("windows-1252");

  /** payment_date, e.g. {@code 10:20:30 Nov 30, 2026 PST}: PayPal's own clock, Pacific time. */
  private static final DateTimeFormatter PAYMENT_DATE =
      DateTimeFormatter.ofPattern("H:mm:ss MMM d, yyyy z", Locale.US);

  private static final Reply SUCCESS = new Reply(200, null, ""); // PayPal only looks at the 200

  /** Where the site puts its order number in the button or the API call. */
  public enum OrderField { INVOICE, CUSTOM }

  private final String receiverEmail;
  private final String receiverId;
  private final String currency;
  private final OrderField orderField;
  private final IpnVerifier verifier;

  /**
   * @param receiverEmail checked (ignoring case) when not null
   * @param receiverId    checked when not null; at least one of the two is set
   * @param currency      the site's currency (e.g. USD); a payment in another is booked as an anomaly
   */
  public PaypalChannel(String receiverEmail, String receiverId, String currency, OrderField orderField,
      URI verifyUrl, long verifyTimeoutMs) {
    if (receiverEmail == null && receiverId == null) {
      throw new IllegalArgumentException("receiver_email or receiver_id is needed");
    }
    this.receiverEmail = receiverEmail;
    this.receiverId = receiverId;
    this.currency = currency.toUpperCase(Locale.ROOT);
    this.orderField = orderField;
    this.verifier = new IpnVerifier(verifyUrl, verifyTimeoutMs);
  }

  @Override
  public String endpoint() {
    return "paypal";
  }

  @Override
  public String path() {
    return "/notify/paypal";
  }

  @Override
  public NotifyEvent verify(NotifyRequest request) throws RejectedNotification {
    throw new UnsupportedOperationException("PayPal IPNs are verified by asking PayPal: use check()");
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    if (request.body().length() == 0) {
      return Future.failedFuture(RejectedNotification.malformed("empty IPN body")); // not worth asking PayPal
    }
    return verifier.ask(request.body()).transform(asked -> {
      if (asked.failed()) {
        return Future.failedFuture(new VerificationUnavailable(
            "PayPal IPN verification failed: " + asked.cause().getMessage(), asked.cause()));
      }
      if (asked.result() == IpnVerifier.Answer.INVALID) {
        return Future.failedFuture(new RejectedNotification(RejectedNotification.Reason.BAD_SIGNATURE,
            "PayPal answered INVALID: not an IPN it sent"));
      }
      try {
        return Future.succeededFuture(read(request.body().getBytes()));
      } catch (RejectedNotification | RuntimeException e) {
        return Future.failedFuture(e);
      }
    });
  }

  /** The fields of an IPN PayPal has VERIFIED. */
  NotifyEvent read(byte[] body) throws RejectedNotification {
    Map<String, String> params = FormBody.decode(body, charsetOf(body));
    if (receiverEmail != null && !receiverEmail.equalsIgnoreCase(params.getOrDefault("receiver_email", ""))) {
      throw wrongReceiver("receiver_email", params.get("receiver_email"), "paypal.receiver_email");
    }
    if (receiverId != null && !receiverId.equals(params.getOrDefault("receiver_id", ""))) {
      throw wrongReceiver("receiver_id", params.get("receiver_id"), "paypal.receiver_id");
    }
    String status = params.getOrDefault("payment_status", "");
    String orderKey = orderField.name().toLowerCase(Locale.ROOT);
    String paidCurrency = params.getOrDefault("mc_currency", "").toUpperCase(Locale.ROOT);
    NotifyEvent event = switch (status) {
      case "Completed" -> new NotifyEvent(Platform.PAYPAL.code(), EventKind.PAYMENT, Ids.require(params, orderKey),
          Ids.require(params, "txn_id"), Money.yuanToCents("mc_gross", params.get("mc_gross")),
          paidAt(params.get("payment_date"), params.get("txn_id")), status);
      case "Refunded", "Reversed" -> refund(params, status, orderKey);
      // Pending, Denied, Canceled_Reversal, ...: the buyer's money did not (yet) reach or leave us. A later
      // Completed of the same txn_id is another event (another key) and is booked then.
      default -> new NotifyEvent(Platform.PAYPAL.code(), EventKind.NONE, optionalId(params, orderKey),
          optionalId(params, "txn_id"), 0, null, status.isEmpty() ? params.getOrDefault("txn_type", "") : status);
    };
    return event.kind() != EventKind.NONE && !paidCurrency.equals(currency) ? event.inForeignCurrency(paidCurrency)
        : event;
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
    return NotifyEvent.refund(Platform.PAYPAL.code(), optionalId(params, orderKey), parent, cents, status,
        new NotifyEvent.Refund(Ids.require(params, "txn_id"), NotifyEvent.Scope.PLATFORM, false,
            paymentDateOrNull(params.get("payment_date"))));
  }

  private static RejectedNotification wrongReceiver(String field, String got, String configKey) {
    return new RejectedNotification(RejectedNotification.Reason.WRONG_MERCHANT,
        field + " '" + Ids.printable(got) + "' is not the configured " + configKey);
  }

  /** An id when present and well-formed, else null (events that book nothing, refunds without an order). */
  private static String optionalId(Map<String, String> params, String field) {
    try {
      return params.getOrDefault(field, "").isEmpty() ? null : Ids.require(params, field);
    } catch (RejectedNotification e) {
      return null;
    }
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
  public Reply success() {
    return SUCCESS;
  }

  @Override
  public Reply failure(int status, String reason) {
    return new Reply(status, "text/plain", reason);
  }
}
