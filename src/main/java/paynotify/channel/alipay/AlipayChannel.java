package paynotify.channel.alipay;

import io.vertx.core.Future;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import paynotify.channel.EventKind;
import paynotify.channel.FormBody;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.PlainTextReplies;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;

/**
 * Alipay open-platform asynchronous notification ({@code POST /notify/alipay}, form-urlencoded).
 * Parsed once in the charset the notification names, verified ({@link AlipaySignature}), then normalised.
 */
public final class AlipayChannel implements PlainTextReplies {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/alipay";

  private static final Set<String> CHARSETS = Set.of("utf-8", "gbk", "gb2312", "gb18030");
  private static final Door DOOR = new Door("alipay", Platform.ALIPAY, PATH, SUCCESS);

  private final AlipaySignature signature;

  @Override
  public Door door() {
    return DOOR;
  }

  public AlipayChannel(AlipaySignature signature) {
    this.signature = signature;
  }

  /**
   * In certificate mode, a signature no known certificate verifies is checked again once what other instances kept
   * was read (Alipay re-issued its certificate and another instance learnt it first; read at most once a minute).
   * When that cannot be read, the notification stays refused for its signature (not taken as unreadable).
   */
  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    Future<NotifyEvent> first = NotifyChannel.sync(() -> verified(request));
    AlipayCertificates certs = signature.certificates();
    return certs == null ? first : first.recover(err -> err instanceof RejectedNotification r
        && r.reason() == RejectedNotification.Reason.BAD_SIGNATURE
        ? certs.fromStore().compose(found -> found ? NotifyChannel.sync(() -> verified(request)) : first)
        : first);
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    byte[] body = request.body().getBytes();
    Charset charset = charsetOf(body);
    Map<String, String> params = FormBody.decode(body, charset);

    signature.verify(params, charset);

    String orderNo = Ids.require(params, "out_trade_no");
    String tradeNo = Ids.require(params, "trade_no");
    long totalCents = Money.yuanToCents("total_amount", params.get("total_amount"));
    String status = params.getOrDefault("trade_status", "");
    EventKind kind = classify(params, status);
    if (kind == EventKind.REFUND) {
      return refund(params, orderNo, tradeNo, status);
    }
    if (kind == EventKind.PAYMENT) {
      return payment(params, params.containsKey("gmt_payment") ? "gmt_payment" : "notify_time");
    }
    return new NotifyEvent(Platform.ALIPAY, kind, orderNo, tradeNo, totalCents, null, status);
  }

  /** The signature rules, for the client that asks Alipay ({@link AlipayGateway}): one set of keys. */
  public AlipaySignature signature() {
    return signature;
  }

  /**
   * The payment of a trade Alipay says is paid, from a notification's fields or from the fields of
   * alipay.trade.query's answer (the same names; its pay time is {@code send_pay_date}): one event, so one
   * idempotency key and one fingerprint however the payment was learnt.
   */
  public static NotifyEvent payment(Map<String, String> fields, String paidAtField) throws RejectedNotification {
    return new NotifyEvent(Platform.ALIPAY, EventKind.PAYMENT, Ids.require(fields, "out_trade_no"),
        Ids.require(fields, "trade_no"), Money.yuanToCents("total_amount", fields.get("total_amount")),
        PlatformTime.paidAt(paidAtField, fields.get(paidAtField), PlatformTime.Form.DASHED),
        fields.getOrDefault("trade_status", ""));
  }

  /**
   * refund_fee is the total refunded on the trade so far (cumulative); out_biz_no names this
   * refund request within its trade only. Without out_biz_no, the cumulative amount names it.
   */
  private static NotifyEvent refund(Map<String, String> params, String orderNo, String tradeNo, String status)
      throws RejectedNotification {
    long refunded = Money.yuanToCents("refund_fee", params.get("refund_fee"));
    String refundNo = params.getOrDefault("out_biz_no", "").isEmpty()
        ? Ids.require(Map.of("refund", tradeNo + "#" + refunded), "refund")
        : Ids.require(params, "out_biz_no");
    return NotifyEvent.refund(Platform.ALIPAY, orderNo, tradeNo, refunded, status,
        new NotifyEvent.Refund(refundNo, NotifyEvent.Scope.TRADE, true,
            PlatformTime.parseOrNull(params.get("gmt_refund"))));
  }

  /**
   * Alipay keeps TRADE_SUCCESS after a partial refund and sends TRADE_CLOSED after a full one:
   * the refund fields, not the status, say that money went back.
   */
  private static EventKind classify(Map<String, String> params, String status) throws RejectedNotification {
    String refundFee = params.get("refund_fee");
    boolean refund = !params.getOrDefault("out_biz_no", "").isEmpty()
        || !params.getOrDefault("gmt_refund", "").isEmpty()
        || (refundFee != null && !refundFee.isEmpty() && Money.yuanToCents("refund_fee", refundFee) > 0);
    if (refund) {
      return EventKind.REFUND;
    }
    switch (status) {
      case "TRADE_SUCCESS":
      case "TRADE_FINISHED":
        return EventKind.PAYMENT;
      case "TRADE_CLOSED":
        return EventKind.CLOSE;
      default:
        return EventKind.NONE; // WAIT_BUYER_PAY, or a status Alipay adds later: acknowledged, logged
    }
  }

  private static Charset charsetOf(byte[] body) throws RejectedNotification {
    String raw = FormBody.rawValue(body, "charset");
    if (raw == null || raw.isEmpty()) {
      return StandardCharsets.UTF_8;
    }
    String name = raw.toLowerCase(Locale.ROOT);
    if (!CHARSETS.contains(name)) {
      throw RejectedNotification.malformed("unsupported charset '" + Ids.printable(raw) + "'");
    }
    return Charset.forName(name);
  }
}
