package paynotify.channel;

import java.time.LocalDateTime;

/**
 * A verified notification, normalised: what every channel hands to booking.
 *
 * @param channel       the platform, as stored with the booking: {@code alipay}, {@code wechat}
 *                      (API v2 and v3 share one trade id space), {@code epay}
 * @param kind          what the notification asks of us
 * @param orderNo       the site's order number (out_trade_no)
 * @param tradeNo       the platform's trade id (null only for events that book nothing)
 * @param amountCents   integer cents: the paid amount (payments), the refunded amount (refunds),
 *                      the trade total (anything else)
 * @param paidAt        when the platform says the buyer paid (payments), else null
 * @param channelStatus the platform's own status word, for logs and anomalies
 */
public record NotifyEvent(
    String channel,
    EventKind kind,
    String orderNo,
    String tradeNo,
    long amountCents,
    LocalDateTime paidAt,
    String channelStatus) {

  /** Business-level key: retries are re-signed with new timestamps, but keep this. Null without a trade id. */
  public String idempotencyKey() {
    return tradeNo == null ? null : channel + ":" + kind.keyPart + ":" + tradeNo;
  }
}
