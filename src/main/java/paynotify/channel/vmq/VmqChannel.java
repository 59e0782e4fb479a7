package paynotify.channel.vmq;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * V免签, {@code GET /notify/vmq}, signed as {@link VmqSignature} says. There is no status (the server pushes only
 * what its phone app saw paid), no timestamp and no retry: the trade is {@code payId}, the one id per payment,
 * and its uniqueness is the only guard against a replay. The order is {@code payId} or {@code param}, as the
 * site's integration sends it ({@code vmq.order_field}). The server shifts {@code reallyPrice} by a few cents to
 * tell concurrent buyers apart: the order is compared with {@code price} (booking keeps no payment of a price that
 * is not the order's: {@link Platform#signsAmountToOrder}), reallyPrice is kept beside it, and one further from it
 * than {@code vmq.max_price_shift} is not booked but an anomaly. A verified sign is never refused: the payments
 * of other orders it also reads as ({@link VmqReadings}) go with the event, and booking, which sees the orders,
 * decides whether one of them could be the one paid.
 */
public final class VmqChannel implements FormChannel {
  private static final Logger LOG = LoggerFactory.getLogger(VmqChannel.class);
  /** Where the V免签 server sends notifications. */
  public static final String PATH = "/notify/vmq";
  private static final Door DOOR = new Door("vmq", Platform.VMQ, PATH, SUCCESS);

  /** Which parameter carries the site's order number. */
  public enum OrderField {
    /** vmqphp's own example, zfaka and most shops: the order number is the payId. */
    PAY_ID("payId"),
    /** dujiaoka: the order number in param, a new payId for each attempt to pay. */
    PARAM("param");

    public final String parameter;

    OrderField(String parameter) {
      this.parameter = parameter;
    }
  }

  private final VmqSignature signature;
  private final OrderField orderField;
  private final long maxShiftCents;
  /** What another reading's param must be to name an order: an id, in vmq.order_pattern (where set). */
  private final Predicate<String> orderNumber;

  @Override
  public Door door() {
    return DOOR;
  }

  /** @param orderPattern what every order number matches in full (vmq.order_pattern), null when not set */
  public VmqChannel(String key, OrderField orderField, Pattern orderPattern, long maxShiftCents) {
    this.signature = new VmqSignature(key, orderField.parameter, orderPattern);
    this.orderField = orderField;
    this.maxShiftCents = maxShiftCents;
    this.orderNumber = p -> Ids.optional(orderField.parameter, p) != null && signature.orderNumber(p);
  }

  @Override
  public boolean acceptsGet() {
    return true; // both servers call the notify URL with a GET query string
  }

  @Override
  public NotifyEvent verified(Map<String, String> params) throws RejectedNotification {
    signature.verify(params);
    // Signed, so the server's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    String tradeNo = Ids.optional("payId", params.get("payId"));
    long priceCents = Money.yuanToCents("price", params.get("price"));
    long paidCents = Money.yuanToCents("reallyPrice", params.get("reallyPrice"));
    String orderNo;
    try {
      Ids.require(params, "payId");
      orderNo = Ids.require(params, orderField.parameter);
    } catch (RejectedNotification e) {
      throw UnbookableNotification.unreadable(Platform.VMQ, tradeNo, Ids.optional(orderField.parameter,
          params.get(orderField.parameter)), e.getMessage() + " (vmq.order_field is " + orderField.parameter + ")");
    }
    if (Math.abs(paidCents - priceCents) > maxShiftCents) {
      throw new UnbookableNotification(Problem.PRICE_SHIFT, Platform.VMQ, tradeNo, orderNo, tradeNo, paidCents,
          "vmq payId " + tradeNo + ": the buyer paid " + Money.format(paidCents) + " (reallyPrice) for order " + orderNo
              + " of price " + Money.format(priceCents) + ", further apart than vmq.max_price_shift "
              + Money.format(maxShiftCents) + ": not booked");
    }
    if (orderField == OrderField.PAY_ID && VmqReadings.forgeable(params.getOrDefault("param", ""))) {
      LOG.warn("vmq payId {}: your site sends param '{}', which ends in 1 or 2 and a price's first characters: the"
          + " createOrder sign of such a param, which the buyer's browser is sent, also signs a payment of its order;"
          + " end param with a letter or leave it empty (docs/channels.md, V免签)", tradeNo,
          Ids.printable(params.get("param")));
    }
    String detail = new JsonObject().put("reallyPrice", params.get("reallyPrice")).put("type", params.get("type"))
        .encode();
    NotifyEvent paid = new NotifyEvent(Platform.VMQ, EventKind.PAYMENT, orderNo, tradeNo, priceCents,
        PlatformTime.now(), "paid").withDetail(detail);
    // With the order in payId, every reading names the same order; in param, booking checks the others'.
    return orderField == OrderField.PAY_ID ? paid : paid.withOtherReadings(VmqReadings.others(orderNo,
        params.get("type"), params.get("price"), params.get("reallyPrice"), maxShiftCents, orderNumber));
  }
}
