package paynotify.recovery;

import java.util.Locale;

/**
 * How a payment booked without its notification was found: the channel its notify_log row names
 * ({@code query}, {@code bill}, {@code repair}), where a notification's row names the endpoint it came in by.
 */
public enum FoundBy {
  /** Asked: a platform's answer to recovery's order query, or Stripe's list of undelivered events. */
  QUERY,
  /** A row of a day's bill the platform served (reconcile.daily.auto_repair). */
  BILL,
  /** A bill row booked by hand (repair book). */
  REPAIR;

  /** notify_log.channel of what was found so: the name, lower-case. */
  public String logChannel() {
    return name().toLowerCase(Locale.ROOT);
  }
}
