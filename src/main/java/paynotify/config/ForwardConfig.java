package paynotify.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import paynotify.booking.SiteEvents;
import paynotify.forward.ForwardSettings.Endpoint;
import paynotify.forward.ForwardSettings;
import paynotify.forward.WebhookSignature;

/** The {@code forward:} section: off (null) until forward.url, or forward.endpoints, is set. */
final class ForwardConfig {
  /**
   * About three days and three hours in all (each wait drawn within 10% of it): a site down over a weekend is
   * told when it is back, as Standard Webhooks recommends.
   */
  static final List<String> DEFAULT_SCHEDULE = List.of("5", "30", "120", "600", "1800", "3600", "7200", "14400",
      "28800", "43200", "86400", "86400");
  private static final Set<String> DEFAULT_EVENTS = Set.of(SiteEvents.PAYMENT_SUCCEEDED,
      SiteEvents.REFUND_SUCCEEDED, SiteEvents.ORDER_CLOSED, SiteEvents.ANOMALY_CREATED);
  /** A secret shorter than this is guessable by whoever can send the site requests. */
  private static final int MIN_SECRET = 16;
  /** A whsec_ secret's key: 24 to 64 bytes (Standard Webhooks: 24 bytes at least, 512 bits at most). */
  private static final int MIN_KEY_BYTES = 24;
  private static final int MAX_KEY_BYTES = 64;
  /** An endpoint's name: it is written into SQL text (the outbox's inserts), so nothing but these. */
  private static final String NAME = "[a-z0-9_-]{1,32}";

  private ForwardConfig() {}

  static ForwardSettings read(ConfigReader c) {
    String url = c.string("forward.url");
    List<ConfigReader> listed = c.sections("forward.endpoints");
    if (url == null && listed.isEmpty()) {
      return null;
    }
    if (url != null && !listed.isEmpty()) {
      throw c.error("forward.endpoints", "set either forward.url (one endpoint, named site) or forward.endpoints,"
          + " not both");
    }
    List<Endpoint> endpoints = new ArrayList<>();
    Set<String> events = events(c, "forward.events", DEFAULT_EVENTS);
    if (url != null) {
      endpoints.add(new Endpoint(ForwardSettings.SITE, uri(c, "forward.url", url), secrets(c, "forward."), events));
    } else if (c.string("forward.secret") != null || c.string("forward.secret_file") != null
        || c.list("forward.secret_files") != null) {
      throw c.error("forward.secret_file", "is forward.url's (as PAYNOTIFY_FORWARD_SECRET and forward.secret_files):"
          + " with forward.endpoints, each endpoint has its own secret_file");
    }
    Set<String> names = new HashSet<>();
    for (ConfigReader e : listed) {
      String name = e.string("name");
      if (name == null || !name.matches(NAME)) {
        throw e.error("name", "required: 1 to 32 of a-z, 0-9, _ and - (what its events, metrics and commands call"
            + " it)");
      }
      if (!names.add(name)) {
        throw e.error("name", "'" + name + "' names another endpoint already");
      }
      String to = e.string("url");
      if (to == null) {
        throw e.error("url", "required: where endpoint " + name + " is sent");
      }
      endpoints.add(new Endpoint(name, uri(e, "url", to), secrets(e, ""), events(e, "events", events)));
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
    return new ForwardSettings(List.copyOf(endpoints), Duration.ofMillis(c.number("forward.timeout_ms", 15_000,
        100, 60_000)), List.copyOf(schedule), c.integer("forward.disable_after_4xx", 10, 0, 1_000));
  }

  /** The event types an endpoint wants: {@code key}, or {@code fallback} (forward.events, or all four). */
  private static Set<String> events(ConfigReader c, String key, Set<String> fallback) {
    List<String> names = c.list(key);
    Set<String> events = new LinkedHashSet<>(names == null ? fallback : names);
    for (String event : events) {
      if (!SiteEvents.TYPES.contains(event)) {
        throw c.error(key, "'" + event + "' is not one of " + SiteEvents.TYPES);
      }
    }
    return Set.copyOf(events);
  }

  /**
   * The secrets, newest first: forward.secret (PAYNOTIFY_FORWARD_SECRET) or forward.secret_file, or while one is
   * rotated forward.secret_files [new, old]. Each is a Standard Webhooks secret (whsec_ and 24-64 bytes in
   * base64) or any other of at least 16 characters.
   */
  private static List<String> secrets(ConfigReader c, String prefix) {
    List<String> files = c.list(prefix + "secret_files");
    String one = c.secret(prefix + "secret");
    if (files != null && one != null) {
      throw c.error(prefix + "secret_files", "set either it or " + prefix + "secret_file, not both");
    }
    List<String> secrets = new ArrayList<>();
    if (files == null) {
      if (one == null) {
        throw c.error(prefix + "secret_file", "required: the key the receiver checks the signatures with"
            + (prefix.isEmpty() ? "" : " (or PAYNOTIFY_FORWARD_SECRET)"));
      }
      secrets.add(one);
    } else {
      for (String file : files) {
        secrets.add(c.fileContent(file, prefix + "secret_files"));
      }
    }
    if (secrets.isEmpty()) {
      throw c.error(prefix + "secret_files", "empty: list the new secret's file, then the old one's");
    }
    for (String secret : secrets) { // never the value in a message
      String key = prefix + (files == null ? "secret_file" : "secret_files");
      if (secret.startsWith(WebhookSignature.PREFIX)) {
        int bytes;
        try {
          bytes = WebhookSignature.key(secret).length;
        } catch (IllegalArgumentException e) {
          throw c.error(key, "a whsec_ secret is whsec_ and base64, and this one's base64 does not decode");
        }
        if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) {
          throw c.error(key, "a whsec_ secret encodes " + MIN_KEY_BYTES + " to " + MAX_KEY_BYTES + " bytes, this one "
              + bytes + " (e.g. echo whsec_$(openssl rand -base64 32))");
        }
      } else if (secret.length() < MIN_SECRET) {
        throw c.error(key, "the secret has " + secret.length() + " characters: use at least " + MIN_SECRET
            + " random ones (e.g. openssl rand -hex 32)");
      }
    }
    return List.copyOf(secrets);
  }

  private static URI uri(ConfigReader c, String key, String url) {
    try {
      URI uri = new URI(url);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
        throw new URISyntaxException(url, "not an http:// or https:// URL with a host");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw c.error(key, "is not an http:// or https:// URL with a host (not shown: it may hold credentials)");
    }
  }
}
