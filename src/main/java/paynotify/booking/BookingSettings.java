package paynotify.booking;

/**
 * How bookings are run (the {@code booking:} section).
 *
 * @param maxAttempts            a deadlock, lock-wait timeout or snapshot conflict is retried this many
 *                               times in all
 * @param tradeClosedClosesOrder whether a platform closing its unpaid trade (Alipay TRADE_CLOSED on
 *                               timeout) closes the site's order. Off by default: the buyer may still pay
 *                               the same order another way (WeChat, a new QR code), and a closed order
 *                               would turn that payment into a paid_after_close anomaly.
 */
public record BookingSettings(int maxAttempts, boolean tradeClosedClosesOrder) {}
