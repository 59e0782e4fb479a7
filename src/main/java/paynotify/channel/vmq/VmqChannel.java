package paynotify.channel.vmq;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;
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
import paynotify.channel.UnbookableNotification;
import paynotify.channel.UnbookableNotification.Problem;

/**
 * V免签, {@code GET /notify/vmq}, signed as {@link VmqSignature} says. There is no status (the server pushes only
 * what its phone app saw paid), no timestamp and no retry: the trade is {@code payId}, the one id per payment,
 * and its uniqueness is the only guard against a replay. The order is {@code payId} or {@code param}, as the
 * site's integration sends it ({@code vmq.order_field}). The server shifts {@code reallyPrice} by a few cents to
 * tell concurrent buyers apart: the order is compared with {@code price}, and a reallyPrice further from it than
 * {@code vmq.max_price_shift} is not booked but an anomaly.
 */
public final class VmqChannel implements PlainTextReplies {
  /** Where the V免签 server sends notifications. */
  public static final String PATH = "/notify/vmq";

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

  /** @param orderPattern what every order number matches in full (vmq.order_pattern), null when not set */
  public VmqChannel(String key, OrderField orderField, Pattern orderPattern, long maxShiftCents) {
    this.signature = new VmqSignature(key, orderField.parameter, orderPattern);
    this.orderField = orderField;
    this.maxShiftCents = maxShiftCents;
  }

  @Override
  public String endpoint() {
    return "vmq";
  }

  @Override
  public Platform platform() {
    return Platform.VMQ;
  }

  @Override
  public String path() {
    return PATH;
  }

  @Override
  public boolean acceptsGet() {
    return true; // both servers call the notify URL with a GET query string
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    Map<String, String> params = FormBody.decode(request.payload().getBytes(), StandardCharsets.UTF_8);
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
      throw UnbookableNotification.unreadable(Platform.VMQ, tradeNo, e.getMessage() + " (vmq.order_field is "
          + orderField.parameter + ")");
    }
    if (Math.abs(paidCents - priceCents) > maxShiftCents) {
      throw new UnbookableNotification(Problem.PRICE_SHIFT, Platform.VMQ, tradeNo, orderNo, tradeNo, paidCents,
          "vmq payId " + tradeNo + ": the buyer paid " + Money.format(paidCents) + " (reallyPrice) for order " + orderNo
              + " of price " + Money.format(priceCents) + ", further apart than vmq.max_price_shift "
              + Money.format(maxShiftCents) + ": not booked");
    }
    String detail = new JsonObject().put("reallyPrice", params.get("reallyPrice")).put("type", params.get("type"))
        .encode();
    return new NotifyEvent(Platform.VMQ, EventKind.PAYMENT, orderNo, tradeNo, priceCents, PlatformTime.now(), "paid")
        .withDetail(detail);
  }
}
