package paynotify.channel;

import java.time.LocalDateTime;
import java.util.List;

/**
 * A verified notification, normalised: what every channel hands to booking.
 *
 * @param platform      whose notification it is; its {@link Platform#code()} is stored with the booking
 *                      (payments.channel) and told to the site ({@code "channel"})
 * @param kind          what the notification asks of us
 * @param orderNo       the site's order number (out_trade_no)
 * @param tradeNo       the platform's trade id (null only for events that book nothing)
 * @param amountCents   integer cents: the paid amount (payments), the refunded amount (refunds),
 *                      the trade total (anything else)
 * @param paidAt        when the platform says the buyer paid (payments), else null
 * @param platformStatus the platform's own status word, for logs and anomalies
 * @param refund        what identifies a refund (REFUND events only), else null
 * @param foreignCurrency the currency paid in when it is not the site's (then the amount is not the
 *                      order's: booked, never marking the order paid), else null
 * @param testMode      the platform's test money (PayPal's sandbox, Stripe's test mode), accepted only
 *                      where the operator allowed it; the site is told {@code "livemode": false}
 * @param detail        what else the platform said of a payment that its row keeps (payments.detail, a
 *                      small JSON object: the crypto amount and chain transaction of a USDT payment), else null
 * @param otherReadings the payments of other orders the same signed message reads as (V免签, whose sign covers its
 *                      values concatenated), which booking checks against the orders waiting; empty for every
 *                      other channel
 */
public record NotifyEvent(
    Platform platform,
    EventKind kind,
    String orderNo,
    String tradeNo,
    long amountCents,
    LocalDateTime paidAt,
    String platformStatus,
    Refund refund,
    String foreignCurrency,
    boolean testMode,
    String detail,
    List<Reading> otherReadings) {

  /** A payment of order {@code orderNo} (as the platform writes it until booking translates it) of that amount. */
  public record Reading(String orderNo, long amountCents) {}

  /** In the site's currency, live money. */
  public NotifyEvent(Platform platform, EventKind kind, String orderNo, String tradeNo, long amountCents,
      LocalDateTime paidAt, String platformStatus, Refund refund) {
    this(platform, kind, orderNo, tradeNo, amountCents, paidAt, platformStatus, refund, null, false, null, List.of());
  }

  /** The same event, paid in {@code currency}, which is not the site's. */
  public NotifyEvent inForeignCurrency(String currency) {
    return new NotifyEvent(platform, kind, orderNo, tradeNo, amountCents, paidAt, platformStatus, refund, currency,
        testMode, detail, otherReadings);
  }

  /** The same event, about the site's order {@code siteOrderNo} (the platform wrote it with a prefix or suffix). */
  public NotifyEvent withOrderNo(String siteOrderNo) {
    return new NotifyEvent(platform, kind, siteOrderNo, tradeNo, amountCents, paidAt, platformStatus, refund,
        foreignCurrency, testMode, detail, otherReadings);
  }

  /** The same event, in the platform's test mode (sandbox money). */
  public NotifyEvent inTestMode() {
    return new NotifyEvent(platform, kind, orderNo, tradeNo, amountCents, paidAt, platformStatus, refund,
        foreignCurrency, true, detail, otherReadings);
  }

  /** The same event, with what its payment row keeps besides the booking's fields ({@code detail}). */
  public NotifyEvent withDetail(String paymentDetail) {
    return new NotifyEvent(platform, kind, orderNo, tradeNo, amountCents, paidAt, platformStatus, refund,
        foreignCurrency, testMode, paymentDetail, otherReadings);
  }

  /** The same event, which its signed message also reads as {@code readings}. */
  public NotifyEvent withOtherReadings(List<Reading> readings) {
    return new NotifyEvent(platform, kind, orderNo, tradeNo, amountCents, paidAt, platformStatus, refund,
        foreignCurrency, testMode, detail, List.copyOf(readings));
  }

  /**
   * @param refundNo   the refund's id (Alipay: out_biz_no; WeChat: refund_id)
   * @param scope      where that id is unique
   * @param cumulative the amount is the total refunded on the trade so far (Alipay's refund_fee),
   *                   not this refund's own amount
   * @param refundedAt when the platform refunded (Beijing time), null when it does not say
   */
  public record Refund(String refundNo, Scope scope, boolean cumulative, LocalDateTime refundedAt) {}

  /** Where a platform's refund ids are unique. */
  public enum Scope {
    /** Only within the refunded trade (Alipay: 同一笔交易多次退款需要保证唯一; sites number them 1, 2, ...). */
    TRADE,
    /** On the whole platform (WeChat Pay's refund_id). */
    PLATFORM
  }

  /** Any event but a refund. */
  public NotifyEvent(Platform platform, EventKind kind, String orderNo, String tradeNo, long amountCents,
      LocalDateTime paidAt, String platformStatus) {
    this(platform, kind, orderNo, tradeNo, amountCents, paidAt, platformStatus, null);
  }

  /** A refund of {@code amountCents} (cumulative or not, as {@code refund} says) on trade {@code tradeNo}. */
  public static NotifyEvent refund(Platform platform, String orderNo, String tradeNo, long amountCents,
      String platformStatus, Refund refund) {
    return new NotifyEvent(platform, EventKind.REFUND, orderNo, tradeNo, amountCents, null, platformStatus, refund);
  }

  /**
   * Business-level key ({@code <platform>:pay:<trade>}, {@code <platform>:refund:[<trade>:]<refund id>}):
   * retries are re-signed with new timestamps, but keep this. Null without a trade id.
   */
  public String idempotencyKey() {
    if (refund != null) {
      String scope = refundScope();
      return key(platform, kind, (scope.isEmpty() ? "" : scope + ":") + refund.refundNo());
    }
    return tradeNo == null ? null : key(platform, kind, tradeNo);
  }

  /** The key of the event of {@code kind} named {@code id} by the platform: {@code platform:kind:id}. */
  public static String key(Platform platform, EventKind kind, String id) {
    return platform.code() + ":" + kind.keyPart + ":" + id;
  }

  /** What a refund id is unique within, as stored in refunds.refund_scope: its trade, or "" (the platform). */
  public String refundScope() {
    return refund.scope() == Scope.TRADE ? tradeNo : "";
  }
}
