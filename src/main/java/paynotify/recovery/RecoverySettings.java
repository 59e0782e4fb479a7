package paynotify.recovery;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import paynotify.channel.Platform;

/**
 * The {@code recovery:} section: which unpaid orders are asked about, how often, and when one is given up.
 *
 * @param enabled          the sweeper runs (the on-demand check works whenever a platform can be asked)
 * @param minAge           an order younger than this is left to its notification
 * @param maxAge           an order older than this is never asked about or booked automatically (past every
 *                         platform's retries)
 * @param interval         how often the sweeper looks for due orders
 * @param queriesPerMinute the most questions one instance asks per minute, all platforms together, the sweeper's
 *                         and checks' ({@link QueryBudget})
 * @param closeAfter       an order still unpaid this long after its creation is closed at the platform and in
 *                         the site's table; null: never
 * @param createdAt        the site's column of an order's creation time (orders.columns.created_at)
 * @param platformOf       the site's channel column's values, by what they mean (alipay, wechat, ...)
 * @param onlyPlatform     the one platform whose notifications the site takes, when it takes only one's (then an
 *                         order whose channel column is empty is that platform's); null when several
 * @param timeout          a platform's whole answer, at most
 * @param confirming       the platforms whose channel confirms a signed payment before booking it
 *                         (confirm_before_book): only their unsigned "paid" answers are compared with a waiting one
 */
public record RecoverySettings(boolean enabled, Duration minAge, Duration maxAge, Duration interval,
    int queriesPerMinute, Duration closeAfter, String createdAt, Map<String, Platform> platformOf,
    Platform onlyPlatform, Duration timeout, Set<Platform> confirming) {

  /** How many orders one sweep claims: the rate cap spread over the interval, at least one. */
  int perSweep() {
    return (int) Math.max(1, queriesPerMinute * interval.toSeconds() / 60);
  }
}
