package paynotify.channel.tokenpay;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
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
 * TokenPay, {@code POST /notify/tokenpay}, a JSON notification signed as {@link TokenPaySignature} says. The order
 * ({@code OutOrderId}) is paid in a coin for its fiat {@code ActualAmount} in {@code BaseCurrency}, which is what
 * is booked; the coin amounts and the chain transaction are kept in the payment's detail. The trade is {@code Id},
 * TokenPay's own order: one OutOrderId may have several (a new one per coin, or after one expired), so a second
 * paid Id of an order is a second payment, not a redelivery.
 */
public final class TokenPayChannel implements PlainTextReplies {
  /** Where TokenPay sends notifications (the NotifyUrl of the site's CreateOrder). */
  public static final String PATH = "/notify/tokenpay";
  /** Status 1, paid: the only one TokenPay notifies (0 is waiting, 2 expired). */
  public static final String PAID = "1";
  /** OrderNotifyService takes exactly HTTP 200 with this body (no trimming, case-sensitive) as delivered. */
  private static final Reply OK = new Reply(200, "text/plain", "ok");
  /**
   * What the payment's detail keeps of a value: an amount, a coin, a chain or a chain transaction (Solana's ~88
   * characters), nothing JSON would escape, so that the six fit payments.detail.
   */
  private static final Pattern KEPT = Pattern.compile("[0-9A-Za-z._:-]{1,64}");
  private static final Pattern KEPT_TRANSACTION = Pattern.compile("[0-9A-Za-z._:-]{1,100}");
  private static final Door DOOR = new Door("tokenpay", Platform.TOKENPAY, PATH, OK);

  private final TokenPaySignature signature;
  private final String currency;
  private final boolean confirmsBeforeBooking;

  @Override
  public Door door() {
    return DOOR;
  }

  /**
   * @param apiToken the ApiToken of TokenPay's appsettings.json
   * @param currency the site's currency, its BaseCurrency (e.g. {@code CNY})
   * @param confirmsBeforeBooking tokenpay.confirm_before_book: someone else holds the ApiToken too (a panel, a
   *                 plugin's host), so a payment is booked once TokenPay's /Query ({@link TokenPayQuery}) says Paid too
   */
  public TokenPayChannel(String apiToken, String currency, boolean confirmsBeforeBooking) {
    this.signature = new TokenPaySignature(apiToken);
    this.currency = currency.toUpperCase(Locale.ROOT);
    this.confirmsBeforeBooking = confirmsBeforeBooking;
  }

  @Override
  public boolean confirmsBeforeBooking() {
    return confirmsBeforeBooking;
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    Map<String, String> values = TokenPaySignature.read(request.body().getBytes());
    signature.verify(values);
    // Signed, so TokenPay's: from here on, what cannot be read is an anomaly for a human, not a refusal.
    String tradeNo = Ids.optional("Id", values.get("Id"));
    String named = Ids.optional("OutOrderId", values.get("OutOrderId"));
    String status = values.getOrDefault("Status", "");
    if (!status.equals(PAID)) { // never sent by TokenPay, which notifies paid orders only: acknowledged, nothing booked
      return new NotifyEvent(Platform.TOKENPAY, EventKind.NONE, named, tradeNo, 0, null, Ids.printable(status));
    }
    try {
      String orderNo = Ids.require(values, "OutOrderId");
      Ids.require(values, "Id");
      long amountCents = Money.yuanToCents("ActualAmount", values.get("ActualAmount"));
      // PayTime is in the TokenPay host's own zone (a block time .ToLocalTime(); a container's is often UTC): the
      // arrival, as for epusdt, is the nearer Beijing time.
      NotifyEvent paid = new NotifyEvent(Platform.TOKENPAY, EventKind.PAYMENT, orderNo, tradeNo, amountCents,
          PlatformTime.now(), status).withDetail(detail(values));
      // BaseCurrency is the fiat TokenPay's appsettings.json prices orders in (its BaseCurrency); without it, ours.
      String base = values.get("BaseCurrency");
      return base == null || base.toUpperCase(Locale.ROOT).equals(currency) ? paid
          : paid.inForeignCurrency(Ids.printable(base.toUpperCase(Locale.ROOT)));
    } catch (RejectedNotification e) {
      throw UnbookableNotification.unreadable(Platform.TOKENPAY, tradeNo, named, e.getMessage());
    }
  }

  /**
   * What was paid in the coin, on which chain, by which transaction: those of them well-formed. A dynamic-amount
   * order (IsDynamicAmount 1) was matched to a transfer within the tolerance its owner set in TokenPay
   * (DynamicAddressConfig), so PayAmount may be below Amount. It is booked as paid all the same: TokenPay, run by
   * the owner, called it paid by the owner's own rule, and the shortfall is in the coin, at TokenPay's rate, which
   * paynotify never converts to the order's fiat; Amount, PayAmount and IsDynamicAmount stay in the detail, where
   * the owner sees it.
   */
  private static String detail(Map<String, String> values) {
    JsonObject detail = new JsonObject();
    for (String field : new String[] {"Amount", "PayAmount", "Currency", "BlockChainName"}) {
      String value = values.get(field);
      if (value != null && KEPT.matcher(value).matches()) {
        detail.put(field, value);
      }
    }
    String transaction = values.get("BlockTransactionId");
    if (transaction != null && KEPT_TRANSACTION.matcher(transaction).matches()) {
      detail.put("BlockTransactionId", transaction);
    }
    String dynamic = values.get("IsDynamicAmount");
    if ("0".equals(dynamic) || "1".equals(dynamic)) {
      detail.put("IsDynamicAmount", Integer.parseInt(dynamic));
    }
    return detail.isEmpty() ? null : detail.encode();
  }
}
