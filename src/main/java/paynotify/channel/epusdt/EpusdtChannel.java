package paynotify.channel.epusdt;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.regex.Pattern;
import paynotify.channel.EventKind;
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

/**
 * epusdt and its forks, {@code POST /notify/epusdt}, a JSON callback signed as {@link EpusdtSignature} says.
 * The order is paid in USDT (or another coin) for its fiat {@code amount}, which is what is booked: the coin
 * amount, the wallet and the chain transaction are kept in the payment's detail. The trade is {@code trade_id}
 * (the gateway's order), never {@code block_transaction_id}: 66 characters on EVM chains, empty in assimon's
 * callbacks, the trade_id itself in BEpusdt's pushes of an unpaid order.
 */
public final class EpusdtChannel implements PlainTextReplies {
  /** Where the gateway sends callbacks. */
  public static final String PATH = "/notify/epusdt";
  /** The one status that is a payment; BEpusdt also pushes 1 (waiting), 3 (expired) and 6 (failed). */
  public static final String PAID = "2";
  /** assimon/epusdt takes exactly this body as delivered (not "success"); the forks take it too. */
  private static final Reply OK = new Reply(200, "text/plain", "ok");
  /**
   * What the payment's detail keeps of a value: an amount, an address or a chain transaction (Solana's: ~88
   * characters), nothing JSON would escape, so that the four fit payments.detail.
   */
  private static final Pattern KEPT = Pattern.compile("[0-9A-Za-z._:-]{1,100}");
  private static final Door DOOR = new Door("epusdt", Platform.EPUSDT, PATH, OK);

  private final EpusdtSignature signature;

  @Override
  public Door door() {
    return DOOR;
  }

  /** @param pid the merchant's pid (GMWalletApp/epusdt), null when the gateway sends none */
  public EpusdtChannel(String token, String pid) {
    this.signature = new EpusdtSignature(token, pid);
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    EpusdtSignature.Fields fields = EpusdtSignature.read(request.body().getBytes());
    signature.verify(fields);
    // Signed, so the gateway's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    Map<String, String> values = fields.values();
    String tradeNo = Ids.optional("trade_id", values.get("trade_id"));
    String named = Ids.optional("order_id", values.get("order_id"));
    String status = values.getOrDefault("status", "");
    if (!status.equals(PAID)) {
      return new NotifyEvent(Platform.EPUSDT, EventKind.NONE, named, tradeNo, 0, null, Ids.printable(status));
    }
    try {
      String orderNo = Ids.require(values, "order_id");
      Ids.require(values, "trade_id");
      long amountCents = Money.yuanToCents("amount", values.get("amount"));
      return new NotifyEvent(Platform.EPUSDT, EventKind.PAYMENT, orderNo, tradeNo, amountCents, PlatformTime.now(),
          status).withDetail(detail(values));
    } catch (RejectedNotification e) {
      throw UnbookableNotification.unreadable(Platform.EPUSDT, tradeNo, named, e.getMessage());
    }
  }

  /** What was paid in the coin, to which wallet, by which chain transaction: those of them well-formed. */
  private static String detail(Map<String, String> values) {
    JsonObject detail = new JsonObject();
    for (String field : new String[] {"actual_amount", "token", "receive_address", "block_transaction_id"}) {
      String value = values.get(field);
      if (value != null && KEPT.matcher(value).matches() && !value.equals(values.get("trade_id"))) {
        detail.put(field, value);
      }
    }
    return detail.isEmpty() ? null : detail.encode();
  }
}
