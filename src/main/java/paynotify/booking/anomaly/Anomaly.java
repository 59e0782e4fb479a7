package paynotify.booking.anomaly;

/**
 * One finding. {@code dedupeKey} names the finding itself, so that recording it again (a
 * redelivery, a re-run) adds no row.
 *
 * @param channel the {@code Platform} code of the trade concerned, or the part that found it ({@code forward})
 */
public record Anomaly(String kind, String channel, String orderNo, String tradeNo, Long amountCents,
    String detail, String dedupeKey) {
  /** anomalies.detail's length (V1): a longer detail is refused under STRICT modes. */
  public static final int DETAIL_LENGTH = 1000;

  /** {@code text} cut to {@code longest} characters, "..." saying so: a platform's words are unbounded. */
  public static String cut(String text, int longest) {
    return text.length() <= longest ? text : text.substring(0, longest - 3) + "...";
  }
}
