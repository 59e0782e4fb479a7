package paynotify.channel.tokenpay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import paynotify.crypto.Digests;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * TokenPay's order query (HomeController.Query): {@code GET {api_base}/Query?Id=<its Id>&Signature=<MD5 of "Id=" + Id +
 * ApiToken>}, asked about the trade a signed notification named (tokenpay.confirm_before_book) and the Id the site kept
 * in orders.columns.platform_ref, as TokenPay has no query by the site's order number ({@link TradeQuery.ById}). Its
 * answer, {@code {"success", "message", "data"}} with the whole order in camelCase and its status as the enum's name
 * (Program.cs' JSON options), is not signed
 * ({@link #books()} false): a "Paid" proves what the TokenPay server's database says, as far as the transport can be
 * trusted (the configuration takes https, or http on this machine only). It has no API to close an order.
 */
public final class TokenPayQuery implements TradeQuery.ById {
  /** TokenPay's Id, a .NET Guid as it writes one ("D" format, lower case): what its Query binds and signs. */
  private static final Pattern GUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final String NOT_FOUND = "订单不存在！";
  private static final JsonFactory JSON = new JsonFactory();

  private final OutboundHttp http;
  private final URI base;
  private final String apiToken;

  /** @param base the TokenPay server's address, e.g. {@code http://127.0.0.1:5000} ({@code /Query} is under it) */
  public TokenPayQuery(OutboundHttp http, URI base, String apiToken) {
    this.http = http;
    this.base = base;
    this.apiToken = apiToken;
  }

  @Override
  public Platform platform() {
    return Platform.TOKENPAY;
  }

  @Override
  public String name() {
    return "tokenpay /Query";
  }

  @Override
  public boolean books() {
    return false;
  }

  @Override
  public Pattern ids() {
    return GUID;
  }

  @Override
  public String idShape() {
    return "a TokenPay Id (a lower-case GUID)";
  }

  @Override
  public Future<TradeAnswer> ask(String outTradeNo, Matcher id) {
    String tradeNo = id.group();
    URI url = URI.create(Urls.root(base) + "/Query?Id=" + tradeNo + "&Signature=" + signature(tradeNo, apiToken));
    return http.send(HttpMethod.GET, url, MultiMap.caseInsensitiveMultiMap().add(HttpHeaders.ACCEPT,
        "application/json"), null).map(reply -> answer(outTradeNo, tradeNo, reply));
  }

  /** VerifySignature of {@code {Id, Signature}}: its one field {@code Id=<Id>}, the ApiToken appended, MD5 hex. */
  static String signature(String id, String apiToken) {
    return Digests.md5Hex("Id=" + id + apiToken);
  }

  private TradeAnswer answer(String outTradeNo, String tradeNo, OutboundHttp.Answer reply) {
    if (reply.status() != 200) {
      throw OutboundFailure.unavailable(name() + " answered HTTP " + reply.status());
    }
    byte[] body = reply.body().getBytes();
    JsonObject json;
    try {
      json = new JsonObject(reply.body());
    } catch (DecodeException | ClassCastException e) {
      throw OutboundFailure.unavailable(name() + " answered something that is not JSON (a login page, a proxy?)");
    }
    String message = Ids.printable(json.getValue("message", ""));
    if (!Boolean.TRUE.equals(json.getValue("success"))) {
      if (NOT_FOUND.equals(json.getValue("message"))) {
        return TradeAnswer.of(State.NOT_FOUND, message, body);
      }
      throw OutboundFailure.refused(name() + " refused: " + message + " (a wrong signature: check that"
          + " tokenpay.key_file holds TokenPay's ApiToken)");
    }
    JsonObject data = json.getValue("data") instanceof JsonObject d ? d : new JsonObject();
    if (!tradeNo.equals(data.getValue("id")) || !outTradeNo.equals(data.getValue("outOrderId"))) {
      throw OutboundFailure.untrusted(name() + " answered about another order (Id "
          + Ids.printable(data.getValue("id")) + ", OutOrderId "
          + Ids.printable(data.getValue("outOrderId")) + ")");
    }
    String status = Ids.printable(data.getValue("status"));
    return switch (status) {
      case "Paid" -> new TradeAnswer(State.PAID, status, payment(outTradeNo, tradeNo, body), body);
      case "Expired" -> TradeAnswer.of(State.CLOSED, status, body);
      default -> TradeAnswer.of(State.WAITING, status, body); // Pending, or a word this code does not know
    };
  }

  /** What its notification carries: the same trade, order and amount (so the same key and fingerprint). */
  private NotifyEvent payment(String outTradeNo, String tradeNo, byte[] body) {
    try {
      return new NotifyEvent(Platform.TOKENPAY, EventKind.PAYMENT, outTradeNo, tradeNo,
          Money.yuanToCents("actualAmount", actualAmount(body)), PlatformTime.now(), TokenPayChannel.PAID);
    } catch (RejectedNotification e) {
      throw OutboundFailure.untrusted(name() + "'s paid answer is not usable: " + e.getMessage());
    }
  }

  /**
   * {@code data.actualAmount} as written (a .NET decimal: {@code 15}, {@code 19.99}, {@code 15.00}), its trailing
   * zeros dropped: read from the text, as a double would not keep every amount exact; null when it is not a number.
   */
  private static String actualAmount(byte[] body) {
    try (JsonParser json = JSON.createParser(body)) {
      json.nextToken();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        boolean data = "data".equals(json.currentName());
        if (json.nextToken() == JsonToken.START_OBJECT && data) {
          while (json.nextToken() == JsonToken.FIELD_NAME) {
            boolean amount = "actualAmount".equals(json.currentName());
            JsonToken value = json.nextToken();
            if (amount) {
              return value.isNumeric() ? new BigDecimal(json.getText()).stripTrailingZeros().toPlainString() : null;
            }
            json.skipChildren();
          }
          return null;
        }
        json.skipChildren();
      }
      return null;
    } catch (StreamReadException | NumberFormatException e) {
      return null;
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array", e);
    }
  }
}
