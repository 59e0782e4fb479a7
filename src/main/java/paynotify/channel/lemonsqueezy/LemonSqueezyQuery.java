package paynotify.channel.lemonsqueezy;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.regex.Pattern;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.channel.UnbookableNotification;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * Lemon Squeezy's Order, asked by its id ({@code GET {api_base}/v1/orders/{id}}, docs /api/orders/retrieve-order): the
 * id the site keeps in orders.columns.platform_ref, as Lemon Squeezy cannot be asked by the site's order number
 * ({@link #asksById()}). Its API signs nothing: the answer is trusted as Lemon Squeezy's for the TLS to
 * api.lemonsqueezy.com and the account's own key, as its SDK trusts it ({@link #books()}), and only as this store's
 * Order, in live mode unless lemonsqueezy.test_mode (else untrusted). Paid, it is the payment its order_created webhook
 * would have booked ({@link LemonSqueezyChannel#payment}); refunded since, in part or in full, it is for a human;
 * pending, it waits; failed or fraudulent, it will not be paid. Its API cannot close an order.
 */
public final class LemonSqueezyQuery implements TradeQuery {
  /** An Order's id: Lemon Squeezy numbers them (JSON:API writes the number as a string). */
  private static final Pattern ID = Pattern.compile("[0-9]{1,19}");

  private final OutboundHttp http;
  private final URI api;
  private final String key;
  private final LemonSqueezyChannel channel;

  /** @param base {@code https://api.lemonsqueezy.com}, or a stand-in's */
  LemonSqueezyQuery(OutboundHttp http, URI base, String apiKey, LemonSqueezyChannel channel) {
    this.http = http;
    this.api = Urls.at(base, "/v1/orders/");
    this.key = apiKey;
    this.channel = channel;
  }

  @Override
  public Platform platform() {
    return Platform.LEMONSQUEEZY;
  }

  @Override
  public String name() {
    return "lemonsqueezy /v1/orders";
  }

  @Override
  public boolean closes() {
    return false;
  }

  @Override
  public boolean asksById() {
    return true;
  }

  @Override
  public Future<TradeAnswer> query(String outTradeNo) {
    return Future.failedFuture(OutboundFailure.refused(name() + " is asked by Lemon Squeezy's order id only, not by an"
        + " order number"));
  }

  @Override
  public boolean isOwnId(String id) {
    return id != null && ID.matcher(id).matches();
  }

  @Override
  public Future<TradeAnswer> query(String outTradeNo, String id) {
    if (!isOwnId(id)) {
      return Future.failedFuture(OutboundFailure.untrusted(name() + ": '" + Ids.printable(id) + "' is not a Lemon"
          + " Squeezy order id (digits)"));
    }
    return LemonSqueezyClients.API.find(http, URI.create(api + id), key).map(body -> answer(outTradeNo, id, body));
  }

  @Override
  public Future<Void> close(String outTradeNo) {
    return Future.failedFuture(OutboundFailure.refused("Lemon Squeezy has no API to close an order"));
  }

  private TradeAnswer answer(String outTradeNo, String id, JsonObject body) {
    if (body == null) {
      return TradeAnswer.of(State.NOT_FOUND, "no such order (404)", null);
    }
    byte[] kept = body.toBuffer().getBytes();
    JsonObject order = body.getValue("data") instanceof JsonObject d ? d : new JsonObject();
    if (!"orders".equals(order.getValue("type")) || !id.equals(order.getValue("id"))) {
      throw OutboundFailure.untrusted(name() + " answered about another object than order " + id + " ("
          + Ids.printable(String.valueOf(order.getValue("type"))) + " " + Ids.printable(String.valueOf(
              order.getValue("id"))) + ")");
    }
    NotifyEvent payment;
    try {
      payment = channel.payment(order, outTradeNo);
    } catch (RejectedNotification | UnbookableNotification e) { // another store's, test money, or unreadable
      throw OutboundFailure.untrusted(name() + ": order " + id + " is not booked: " + e.getMessage());
    }
    JsonObject attributes = order.getJsonObject("attributes");
    String status = attributes.getValue("status") instanceof String s ? s : "";
    long refunded = attributes.getValue("refunded_amount") instanceof Number n ? n.longValue() : 0;
    return switch (status) {
      // the docs' "Issue a refund" example keeps paid after a partial refund: its refunded_amount says so
      case LemonSqueezyChannel.PAID -> refunded > 0 || Boolean.TRUE.equals(attributes.getValue("refunded"))
          ? TradeAnswer.refunded(payment, "paid, " + Money.format(refunded) + " refunded", kept)
          : TradeAnswer.paid(payment, kept);
      case LemonSqueezyChannel.PARTIAL_REFUND, LemonSqueezyChannel.REFUNDED ->
          TradeAnswer.refunded(payment, status, kept);
      case "failed", "fraudulent" -> TradeAnswer.of(State.CLOSED, status, kept);
      default -> TradeAnswer.of(State.WAITING, Ids.printable(status), kept); // pending, or a word not known here
    };
  }
}
