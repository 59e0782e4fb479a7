package paynotify.forward;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Where and how the site is told of what was booked ({@code forward:}).
 *
 * @param url      the site's endpoint
 * @param secrets  the shared HMAC keys, newest first (two while one is rotated); never logged
 * @param timeout  an attempt not answered 2xx within it failed
 * @param schedule the waits after each failed attempt; after the last one the event is failed
 * @param events   the event types the site wants
 */
public record ForwardSettings(URI url, List<String> secrets, Duration timeout, List<Duration> schedule,
    Set<String> events) {
  @Override
  public String toString() { // never the secret
    return url + " (events " + events + ", timeout " + timeout.toMillis() + " ms, " + (schedule.size() + 1)
        + " attempts)";
  }

  /** The newest secret: the one {@code Paynotify-Signature} is keyed with. */
  public String secret() {
    return secrets.get(0);
  }

  /** How long a claim holds an event: past it, the sender is presumed dead and another instance takes over. */
  public Duration lease() {
    return timeout.multipliedBy(2).plusSeconds(1);
  }
}
