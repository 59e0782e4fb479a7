package paynotify.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An ended time during which the database refused writes ({@link DbErrors#refusal}): what the owner is told when
 * it is over, what the daily close and the status read back.
 *
 * @param reason            the first refusal's, e.g. {@code disk full (1114)}
 * @param since             the first refusal
 * @param until             the last refusal
 * @param refused           notifications answered failure because of it
 * @param refusedByEndpoint those by endpoint ({@code alipay}, {@code epusdt}, ...)
 * @param lostOrders        the orders named by refused notifications of platforms that never deliver again (epusdt,
 *                          V免签), each once, the first {@link #LOST_ORDERS_KEPT}: what the owner must look at
 */
public record RefusalEpisode(String reason, Instant since, Instant until, long refused,
    Map<String, Long> refusedByEndpoint, List<String> lostOrders) {
  /** The most order numbers an episode keeps (a flood of refusals must not grow it). */
  public static final int LOST_ORDERS_KEPT = 20;

  public RefusalEpisode {
    lostOrders = List.copyOf(lostOrders);
  }

  /** Without the lost orders' numbers (none known). */
  public RefusalEpisode(String reason, Instant since, Instant until, long refused, Map<String, Long> refusedByEndpoint) {
    this(reason, since, until, refused, refusedByEndpoint, List.of());
  }
}
