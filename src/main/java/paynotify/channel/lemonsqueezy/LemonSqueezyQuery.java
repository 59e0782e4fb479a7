package paynotify.channel.lemonsqueezy;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.regex.Matcher;
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
import paynotify.net.BearerApi;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * Lemon Squeezy's Order, asked by its id ({@code GET {api_base}/v1/orders/{id}}, docs /api/orders/retrieve-order)
 * about the Order the site keeps in orders.columns.platform_ref as {@code <id>:<identifier>}, as Lemon Squeezy cannot
 * be asked by the site's order number ({@link TradeQuery.ById}). The id alone proves nothing: Lemon Squeezy numbers its
 * Orders in sequence, and the site has it from the buyer's browser (Lemon.js's Checkout.Success, a button link's
 * {@code [order_id]}), so a buyer could name another buyer's Order of the same price on an order of theirs. Its
 * identifier, a random UUID given with the id to the buyer who paid and to no one else, is the proof: the answer
 * books only when its {@code identifier} is the one kept. Its API signs nothing: the answer is trusted as Lemon
 * Squeezy's for the TLS to api.lemonsqueezy.com and the account's own key, as its SDK trusts it ({@link #books()}),
 * and only as this store's Order, in live mode unless lemonsqueezy.test_mode (else untrusted). Paid, it is the payment
 * its order_created webhook would have booked ({@link LemonSqueezyChannel#payment}); refunded since, in part or in
 * full, it is for a human; pending, it waits; failed or fraudulent, it will not be paid. Its API cannot close an order.
 */
public final class LemonSqueezyQuery implements TradeQuery.ById {
  private static final String NAME = "lemonsqueezy /v1/orders/{id}";
  /** Lemon Squeezy's API, its messages named by this client's. */
  private static final BearerApi API = LemonSqueezyApi.api(NAME);
  /**
   * What the site keeps of an Order: its id (Lemon Squeezy numbers them; JSON:API writes the number as a string), a
   * colon and its identifier (a UUID).
   */
  private static final Pattern REF = Pattern.compile(
      "([0-9]{1,19}):([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})");

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
    return NAME;
  }

  /** Only {@code <id>:<identifier>}: a bare id, which anyone can guess, is no question (the site's order not asked). */
  @Override
  public Pattern ids() {
    return REF;
  }

  @Override
  public String idShape() {
    return "a Lemon Squeezy order id and identifier (<digits>:<UUID>)";
  }

  @Override
  public Future<TradeAnswer> ask(String outTradeNo, Matcher parts) {
    String id = parts.group(1);
    return API.find(http, URI.create(api + id), key).map(body -> body == null
        ? TradeAnswer.of(State.NOT_FOUND, "no such order (404)", null) : answer(outTradeNo, id, parts.group(2), body));
  }

  private TradeAnswer answer(String outTradeNo, String id, String identifier, JsonObject body) {
    JsonObject order = body.getValue("data") instanceof JsonObject d ? d : new JsonObject();
    if (!"orders".equals(order.getValue("type")) || !id.equals(order.getValue("id"))) {
      throw OutboundFailure.untrusted(name() + " answered about another object than order " + id + " ("
          + Ids.printable(order.getValue("type")) + " " + Ids.printable(order.getValue("id")) + ")");
    }
    // what is kept of it is all that is read of it: what the channel reads, not the buyer's name, e-mail or receipt
    JsonObject read = LemonSqueezyApi.kept(order);
    byte[] kept = read.toBuffer().getBytes();
    JsonObject attributes = read.getJsonObject("attributes");
    if (!(attributes.getValue("identifier") instanceof String said) || !said.equalsIgnoreCase(identifier)) {
      // the id was not handed to the buyer with the identifier kept: guessed, or mistyped
      throw OutboundFailure.untrusted(name() + " answered about another order: order " + id + "'s identifier is not"
          + " the one kept with its id in orders.columns.platform_ref");
    }
    NotifyEvent payment;
    try {
      payment = channel.payment(read, outTradeNo);
    } catch (RejectedNotification | UnbookableNotification e) { // another store's, test money, or unreadable
      throw OutboundFailure.untrusted(name() + ": order " + id + " is not booked: " + e.getMessage());
    }
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
