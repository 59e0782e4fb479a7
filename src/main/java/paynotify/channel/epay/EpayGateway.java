package paynotify.channel.epay;

import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.Map;
import paynotify.channel.EventKind;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * An epay-style aggregator's order query (彩虹易支付 {@code api.php?act=order}). Its answer is not signed and
 * the merchant key travels in the URL, so HTTPS is required (the configuration refuses plain HTTP but on
 * this machine) and, unless {@code epay.query_books} says otherwise, a "paid" answer is not booked: it is an
 * anomaly for a human ({@link #books()}), unless it confirms a signed notification that waits for it
 * (epay.confirm_before_book). The aggregator has no API to close a trade ({@link #closes()}).
 */
public final class EpayGateway implements TradeQuery {
  private static final int FOUND = 1;
  private static final int NO_SUCH_ORDER = -1;

  private final OutboundHttp http;
  private final URI api;
  private final String pid;
  private final String key;
  private final boolean books;

  /**
   * @param base  the aggregator's address, e.g. {@code https://pay.example.com/} ({@code api.php} is under it)
   * @param books whether its "paid" is booked without a human (epay.query_books)
   */
  public EpayGateway(OutboundHttp http, URI base, String pid, String key, boolean books) {
    this.http = http;
    this.api = base.resolve("api.php");
    this.pid = pid;
    this.key = key;
    this.books = books;
  }

  @Override
  public Platform platform() {
    return Platform.EPAY;
  }

  @Override
  public String name() {
    return "epay api.php?act=order";
  }

  @Override
  public boolean books() {
    return books;
  }

  @Override
  public boolean closes() {
    return false;
  }

  @Override
  public Future<TradeAnswer> query(String outTradeNo) {
    URI url = URI.create(api + "?act=order&pid=" + encode(pid) + "&key=" + encode(key) + "&out_trade_no="
        + encode(outTradeNo));
    return http.send(HttpMethod.GET, url, MultiMap.caseInsensitiveMultiMap().add(HttpHeaders.ACCEPT,
        "application/json"), null).map(reply -> answer(outTradeNo, reply));
  }

  @Override
  public Future<Void> close(String outTradeNo) {
    return Future.failedFuture(OutboundFailure.refused("epay has no API to close a trade"));
  }

  private TradeAnswer answer(String outTradeNo, OutboundHttp.Answer reply) {
    if (reply.status() != 200) {
      throw OutboundFailure.unavailable(name() + " answered HTTP " + reply.status());
    }
    byte[] body = reply.body().getBytes();
    JsonObject json;
    try {
      json = new JsonObject(reply.body());
    } catch (DecodeException | ClassCastException e) {
      throw OutboundFailure.unavailable(name() + " answered something that is not JSON (a login page, a WAF?)");
    }
    int code = number(json.getValue("code"));
    String msg = Ids.printable(json.getValue("msg", ""));
    if (code == NO_SUCH_ORDER) {
      return TradeAnswer.of(State.NOT_FOUND, "code=-1 " + msg, body);
    }
    if (code != FOUND) {
      throw OutboundFailure.refused(name() + " refused: code=" + code + " " + msg + " (check epay.pid and epay.key_file)");
    }
    if (!pid.equals(String.valueOf(json.getValue("pid"))) || !outTradeNo.equals(json.getString("out_trade_no"))) {
      throw OutboundFailure.untrusted(name() + " answered about another merchant or order (pid "
          + Ids.printable(json.getValue("pid")) + ", order " + Ids.printable(json.getString("out_trade_no"))
          + ")");
    }
    int status = number(json.getValue("status"));
    return switch (status) {
      case 1 -> TradeAnswer.paid(payment(json, body), body);
      case 0 -> TradeAnswer.of(State.WAITING, "status=0", body);
      case 2 -> TradeAnswer.of(State.CLOSED, "status=2 (refunded)", body);
      default -> TradeAnswer.of(State.WAITING, "status=" + status, body);
    };
  }

  /** What its notification would carry: the same trade, order and amount (so the same key and fingerprint). */
  private NotifyEvent payment(JsonObject json, byte[] body) {
    try {
      Map<String, String> fields = Map.of("trade_no", String.valueOf(json.getValue("trade_no", "")),
          "out_trade_no", json.getString("out_trade_no"), "money", String.valueOf(json.getValue("money", "")));
      String endtime = json.getValue("endtime") instanceof String s ? s : null;
      return new NotifyEvent(Platform.EPAY, EventKind.PAYMENT, fields.get("out_trade_no"),
          Ids.require(fields, "trade_no"), Money.yuanToCents("money", fields.get("money")),
          PlatformTime.paidAt("endtime", endtime, PlatformTime.Form.DASHED), "TRADE_SUCCESS");
    } catch (RejectedNotification | ClassCastException e) {
      throw OutboundFailure.untrusted(name() + "'s paid answer is not usable: " + e.getMessage());
    }
  }

  /** epay writes numbers as numbers or as strings, depending on its version. */
  private static int number(Object value) {
    if (value instanceof Number n) {
      return n.intValue();
    }
    try {
      return Integer.parseInt(String.valueOf(value).trim());
    } catch (NumberFormatException e) {
      return Integer.MIN_VALUE;
    }
  }
}
