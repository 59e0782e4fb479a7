package paynotify.channel.epay;

import java.util.List;
import java.util.Map;
import paynotify.channel.EventKind;
import paynotify.channel.FormChannel;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;

/**
 * Epay-style aggregators (彩虹易支付 and compatibles), {@code GET} or {@code POST /notify/epay},
 * signed as {@link EpaySignature} says.
 */
public final class EpayChannel implements FormChannel {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/epay";

  /**
   * The reference platform's payment types: those its install creates (alipay, wxpay, qqpay, bank,
   * jdpay, paypal) and those its plugins add (usdt, ecny). A platform's admin may add others: the
   * operator names them in epay.payment_types.
   */
  public static final List<String> PAYMENT_TYPES = List.of("alipay", "wxpay", "qqpay", "bank", "jdpay", "paypal",
      "usdt", "ecny");
  private static final Door DOOR = new Door("epay", Platform.EPAY, PATH, SUCCESS);

  private final EpaySignature signature;
  private final List<String> paymentTypes;
  private final boolean confirmsBeforeBooking;

  @Override
  public Door door() {
    return DOOR;
  }

  /**
   * @param paymentTypes          the values of {@code type} accepted, {@link #PAYMENT_TYPES} unless configured
   * @param confirmsBeforeBooking epay.confirm_before_book: the aggregator holds the key that signs, so a payment is
   *                              booked once its order query ({@link EpayGateway}) says paid too
   */
  public EpayChannel(String pid, String key, List<String> paymentTypes, boolean confirmsBeforeBooking) {
    this.signature = new EpaySignature(pid, key);
    this.paymentTypes = List.copyOf(paymentTypes);
    this.confirmsBeforeBooking = confirmsBeforeBooking;
  }

  @Override
  public boolean confirmsBeforeBooking() {
    return confirmsBeforeBooking;
  }

  @Override
  public boolean acceptsGet() {
    return true; // the reference platform calls the notify URL with a GET query string
  }

  @Override
  public NotifyEvent verified(Map<String, String> params) throws RejectedNotification {
    signature.verify(params);
    String type = params.get("type");
    if (!paymentTypes.contains(type)) {
      throw RejectedNotification.malformed("type '" + Ids.printable(type) + "' is not one of epay.payment_types "
          + paymentTypes + ": if the platform offers it, add it there");
    }
    String orderNo = Ids.require(params, "out_trade_no");
    String tradeNo = Ids.require(params, "trade_no");
    long amountCents = Money.yuanToCents("money", params.get("money"));
    String status = params.getOrDefault("trade_status", "");
    boolean paid = status.equals("TRADE_SUCCESS");
    return new NotifyEvent(Platform.EPAY, paid ? EventKind.PAYMENT : EventKind.NONE, orderNo, tradeNo,
        amountCents, paid ? PlatformTime.now() : null, status);
  }
}
