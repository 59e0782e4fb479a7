package paynotify.store;

import java.lang.management.ManagementFactory;
import java.util.UUID;

/**
 * Who holds a lease (order_checks', daily_closes', alert_lease's): this process and a nonce, within their 64
 * characters.
 */
public final class LeaseOwner {
  private static final int MAX = 64;

  private LeaseOwner() {}

  /** {@code pid@host:nonce}; a long host name is cut, never the nonce that tells two holders apart. */
  public static String next() {
    String process = ManagementFactory.getRuntimeMXBean().getName();
    String nonce = ":" + UUID.randomUUID().toString().substring(0, 8);
    return process.substring(0, Math.min(process.length(), MAX - nonce.length())) + nonce;
  }
}
