package paynotify.booking.anomaly;

/**
 * One finding. {@code dedupeKey} names the finding itself, so that recording it again (a
 * redelivery, a re-run) adds no row.
 *
 * @param channel the {@code Platform} code of the trade concerned, or the part that found it ({@code forward})
 */
public record Anomaly(String kind, String channel, String orderNo, String tradeNo, Long amountCents,
    String detail, String dedupeKey) {}
