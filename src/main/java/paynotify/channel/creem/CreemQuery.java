package paynotify.channel.creem;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import paynotify.channel.EventKind;
import paynotify.channel.Ids;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.BearerApi;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * Creem's checkout, asked by its id: {@code GET {api_base}/v1/checkouts?checkout_id=ch_...} with the account's key in
 * {@code x-api-key}. The site gets that id creating the checkout ({@code POST /v1/checkouts}, its order's number in
 * {@code request_id}) and keeps it in orders.columns.platform_ref, as Creem cannot be asked by the site's number
 * ({@link TradeQuery.ById}). A completed checkout whose order is paid is read by the channel as the
 * {@code checkout.completed} it would have been sent, so that its late webhook is a duplicate of what was booked. The
 * checkout does not say whether its order was refunded since (an order is {@code pending} or {@code paid}, nothing
 * else): so before it is booked the order's transactions are asked ({@code GET /v1/transactions/search?order_id=}),
 * and one refunded in full or in part, or charged back, makes it {@link State#REFUNDED}.
 *
 * <p>Creem signs no answer: it is trusted as Creem's because it comes over TLS from api.creem.io with the account's
 * key ({@link #books()}), as Paddle's and Stripe's API answers are. Creem has no API to close a checkout.
 */
public final class CreemQuery implements TradeQuery.ById {
  /** A checkout's id as Creem writes one ({@code ch_4l0N34kxo16AhRKUHFUuXr}), no longer than a trade number. */
  private static final Pattern CHECKOUT = Pattern.compile("ch_[A-Za-z0-9]{1,61}");
  /** The transaction statuses (TransactionStatus) of money gone back: refunded, partly refunded, charged back. */
  private static final Set<String> MONEY_BACK = Set.of("refunded", "partialRefund", "chargedBack");
  /** Transactions asked of an order: one for a one-time payment, one more for each renewal of a subscription. */
  private static final int TRANSACTIONS = 50;
  /** Creem's API: the key in {@code x-api-key}, a key refused named by its setting, Creem's own words in an error. */
  private static final BearerApi API = new BearerApi("creem checkout", "creem.api_key_file must hold this account's API"
      + " key (Developers > API keys) of the environment creem.api_base names: a live key for api.creem.io, a Test Mode"
      + " key (creem_test_...) for test-api.creem.io", "x-api-key", "", "application/json", CreemQuery::words);

  private final OutboundHttp http;
  private final URI base;
  private final String key;
  private final CreemChannel channel;

  /** @param base {@code https://api.creem.io}, {@code https://test-api.creem.io}, or a stand-in's */
  CreemQuery(OutboundHttp http, URI base, String key, CreemChannel channel) {
    this.http = http;
    this.base = base;
    this.key = key;
    this.channel = channel;
  }

  @Override
  public Platform platform() {
    return Platform.CREEM;
  }

  @Override
  public String name() {
    return API.name();
  }

  @Override
  public Pattern ids() {
    return CHECKOUT;
  }

  @Override
  public String idShape() {
    return "a Creem checkout id (ch_...)";
  }

  @Override
  public Future<TradeAnswer> ask(String outTradeNo, Matcher checkout) {
    String id = checkout.group();
    return API.find(http, Urls.at(base, "/v1/checkouts?checkout_id=" + id), key)
        .compose(found -> found == null
            ? Future.succeededFuture(TradeAnswer.of(State.NOT_FOUND, "checkout " + id + " not found", null))
            : answer(outTradeNo, id, found));
  }

  /** What the checkout says, once it is this order's ("not your number": another's books nothing), its mode taken. */
  private Future<TradeAnswer> answer(String outTradeNo, String id, JsonObject checkout) {
    byte[] body = checkout.toBuffer().getBytes();
    if (!id.equals(checkout.getValue("id")) || !outTradeNo.equals(siteOrder(checkout))) {
      throw OutboundFailure.untrusted(name() + " answered about another order (checkout "
          + Ids.printable(checkout.getValue("id")) + ", request_id " + Ids.printable(checkout.getValue("request_id"))
          + ")");
    }
    if (!channel.takes(checkout.getValue("mode"))) {
      throw OutboundFailure.refused(name() + ": checkout " + id + " is in mode '"
          + Ids.printable(checkout.getValue("mode")) + "', not prod, and this instance books live money"
          + " (creem.test_mode: false): creem.api_key_file holds a Test Mode key");
    }
    String status = Ids.printable(checkout.getValue("status"));
    return switch (status) {
      case "completed" -> paid(checkout, body);
      case "expired" -> Future.succeededFuture(TradeAnswer.of(State.CLOSED, status, body));
      default -> Future.succeededFuture(TradeAnswer.of(State.WAITING, status, body)); // pending, processing
    };
  }

  /** The order the site named: the channel's reading of request_id, else metadata.order_no; null if none is read. */
  private static String siteOrder(JsonObject checkout) {
    try {
      return CreemChannel.siteOrder(checkout);
    } catch (RejectedNotification e) { // a number JavaScript may have rounded names no order
      return null;
    }
  }

  /**
   * A completed checkout, read as its {@code checkout.completed}, made when its order was ({@code order.created_at},
   * seconds before Creem's event in its docs' samples): its order paid, unless money went back since.
   */
  private Future<TradeAnswer> paid(JsonObject checkout, byte[] body) {
    NotifyEvent payment;
    try {
      payment = channel.read(new JsonObject().put("eventType", "checkout.completed")
          .put("created_at", createdAt(checkout.getValue("order"))).put("object", checkout));
    } catch (RejectedNotification | UnbookableNotification e) { // test money, or what its webhook could not be read as
      throw OutboundFailure.untrusted(name() + "'s completed checkout is not usable: " + e.getMessage());
    }
    if (payment.kind() != EventKind.PAYMENT) { // its order not paid (yet)
      return Future.succeededFuture(TradeAnswer.of(State.WAITING, payment.platformStatus(), body));
    }
    return API.get(http, Urls.at(base, "/v1/transactions/search?order_id=" + Urls.encode(payment.tradeNo())
        + "&page_size=" + TRANSACTIONS), key).map(list -> moneyBack(payment, list, body));
  }

  /**
   * The order's transactions: one refunded, partly refunded or charged back makes the payment refunded. One naming
   * no order is taken as the order's (it was asked for by the order): money gone back is never booked as paid.
   */
  private TradeAnswer moneyBack(NotifyEvent payment, JsonObject list, byte[] body) {
    if (!(list.getValue("items") instanceof JsonArray items)) {
      throw OutboundFailure.unavailable(name() + ": the transactions of order " + payment.tradeNo() + " are no list");
    }
    for (Object item : items) {
      if (item instanceof JsonObject t && (t.getValue("order") == null || payment.tradeNo().equals(t.getValue("order")))
          && MONEY_BACK.contains(t.getValue("status"))) {
        return TradeAnswer.refunded(payment, "completed, transaction " + Ids.printable(t.getValue("id")) + " "
            + Ids.printable(t.getValue("status")), body);
      }
    }
    return TradeAnswer.paid(payment, body);
  }

  /** {@code order.created_at} (ISO 8601) in milliseconds, as an event's created_at; null when not said. */
  private static Long createdAt(Object order) {
    try {
      return order instanceof JsonObject o && o.getValue("created_at") instanceof String at
          ? OffsetDateTime.parse(at).toInstant().toEpochMilli() : null;
    } catch (DateTimeException e) {
      return null;
    }
  }

  /**
   * Creem's words in an error: its {@code error} and {@code message}, a list of sentences (its docs) or one; null when
   * it says neither.
   */
  private static String words(JsonObject error) {
    Object message = error.getValue("message");
    String messages = message instanceof JsonArray list
        ? list.stream().map(Ids::printable).collect(Collectors.joining("; "))
        : message == null ? "" : Ids.printable(message);
    String said = (error.getValue("error") == null ? "" : Ids.printable(error.getValue("error")))
        + (messages.isEmpty() ? "" : ": " + messages);
    return said.isEmpty() ? null : said;
  }
}
