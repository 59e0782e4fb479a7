package paynotify.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import paynotify.booking.SiteEvents;
import paynotify.forward.ForwardSettings;

/** The {@code forward:} section: off (null) until forward.url is set. */
final class ForwardConfig {
  static final List<String> DEFAULT_SCHEDULE =
      List.of("10", "30", "60", "120", "300", "600", "1800", "3600", "7200", "14400", "28800");
  /** A secret shorter than this is guessable by whoever can send the site requests. */
  private static final int MIN_SECRET = 16;

  private ForwardConfig() {}

  static ForwardSettings read(ConfigReader c) {
    String url = c.string("forward.url");
    if (url == null) {
      return null;
    }
    String secret = c.inlineOrFile("forward.secret");
    if (secret == null) {
      throw c.error("forward.secret_file", "required with forward.url: the key the site checks Paynotify-Signature"
          + " with (or PAYNOTIFY_FORWARD_SECRET)");
    }
    if (secret.length() < MIN_SECRET) {
      throw c.error("forward.secret_file", "the secret has " + secret.length() + " characters: use at least "
          + MIN_SECRET + " random ones (e.g. openssl rand -hex 32)");
    }
    List<String> seconds = c.list("forward.retry_schedule_seconds");
    List<Duration> schedule = new ArrayList<>();
    for (String s : seconds == null ? DEFAULT_SCHEDULE : seconds) {
      try {
        long n = Long.parseLong(s);
        if (n < 1 || n > 7 * 86_400) {
          throw new NumberFormatException();
        }
        schedule.add(Duration.ofSeconds(n));
      } catch (NumberFormatException e) {
        throw c.error("forward.retry_schedule_seconds", "'" + s + "' is not a number of seconds from 1 to 604800");
      }
    }
    List<String> names = c.list("forward.events");
    Set<String> events = new LinkedHashSet<>(names == null ? List.of(SiteEvents.PAYMENT_SUCCEEDED,
        SiteEvents.REFUND_SUCCEEDED, SiteEvents.ORDER_CLOSED, SiteEvents.ANOMALY_CREATED) : names);
    for (String event : events) {
      if (!SiteEvents.TYPES.contains(event)) {
        throw c.error("forward.events", "'" + event + "' is not one of " + SiteEvents.TYPES);
      }
    }
    return new ForwardSettings(uri(c, url), secret,
        Duration.ofMillis(c.number("forward.timeout_ms", 5_000, 100, 60_000)), List.copyOf(schedule), events);
  }

  private static URI uri(ConfigReader c, String url) {
    try {
      URI uri = new URI(url);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
        throw new URISyntaxException(url, "not an http:// or https:// URL with a host");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw c.error("forward.url", "'" + url + "' is not an http:// or https:// URL with a host");
    }
  }
}
