package paynotify.channel.xunhupay;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import paynotify.channel.EventKind;
import paynotify.channel.FormChannel;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;

/**
 * 虎皮椒 (xunhupay), {@code POST /notify/xunhupay}, a UTF-8 form signed as {@link XunhupaySignature} says.
 * The trade is {@code open_order_id}, 虎皮椒's own order id: one per order it created, the id its query API
 * takes (transaction_id, the upstream WeChat or Alipay number, is kept in the payment's detail).
 */
public final class XunhupayChannel implements FormChannel {
  /** Where the platform sends notifications. */
  public static final String PATH = "/notify/xunhupay";
  /** The one status that is a payment (OD 已支付); WP (unpaid) and CD (cancelled) book nothing. */
  public static final String PAID = "OD";
  /** Refunds at 虎皮椒 (RD 退款, UD 退款失败): not booked, each an anomaly for a human. */
  private static final Set<String> REFUNDS = Set.of("RD", "UD");
  private static final Door DOOR = new Door("xunhupay", Platform.XUNHUPAY, PATH, SUCCESS);

  private final XunhupaySignature signature;

  @Override
  public Door door() {
    return DOOR;
  }

  public XunhupayChannel(String appId, String appSecret) {
    this.signature = new XunhupaySignature(appId, appSecret);
  }

  @Override
  public NotifyEvent verified(Map<String, String> params) throws RejectedNotification {
    signature.verify(params);
    // Signed, so 虎皮椒's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    String tradeNo = Ids.optional("open_order_id", params.get("open_order_id"));
    String named = Ids.optional("trade_order_id", params.get("trade_order_id"));
    String status = params.getOrDefault("status", "");
    if (REFUNDS.contains(status)) {
      throw refund(status, tradeNo, named, params.get("total_fee"));
    }
    if (!status.equals(PAID)) {
      return new NotifyEvent(Platform.XUNHUPAY, EventKind.NONE, named, tradeNo, 0, null, Ids.printable(status));
    }
    try {
      String orderNo = Ids.require(params, "trade_order_id");
      Ids.require(params, "open_order_id");
      long amountCents = Money.yuanToCents("total_fee", params.get("total_fee"));
      String upstream = Ids.optional("transaction_id", params.get("transaction_id"));
      return new NotifyEvent(Platform.XUNHUPAY, EventKind.PAYMENT, orderNo, tradeNo, amountCents, PlatformTime.now(),
          status).withDetail(upstream == null ? null : new JsonObject().put("transaction_id", upstream).encode());
    } catch (RejectedNotification e) {
      throw UnbookableNotification.unreadable(Platform.XUNHUPAY, tradeNo, named, e.getMessage());
    }
  }

  /**
   * Review N10: a refund at 虎皮椒 says neither a refund id nor, for certain, what was paid back: not booked, but
   * never silence. Each status of a trade is recorded once, however often it is sent.
   */
  private static UnbookableNotification refund(String status, String tradeNo, String orderNo, String totalFee) {
    Long cents;
    try {
      cents = Money.yuanToCents("total_fee", totalFee);
    } catch (RejectedNotification e) {
      cents = null;
    }
    String what = status.equals("UD") ? "a refund of it failed at 虎皮椒 (UD, 退款失败)"
        : "it was refunded at 虎皮椒 (RD, 退款)";
    return new UnbookableNotification(Problem.UNBOOKED_REFUND, Platform.XUNHUPAY,
        tradeNo == null ? null : tradeNo + ":" + status, orderNo, tradeNo, cents, "xunhupay order " + orderNo
            + " (open_order_id " + tradeNo + (cents == null ? "" : ", " + Money.format(cents)) + "): " + what
            + "; not booked: paynotify books no 虎皮椒 refunds");
  }
}
