package paynotify.forward;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where and how the site (and whatever else listens) is told of what was booked ({@code forward:}).
 *
 * @param endpoints       each with its own deliveries; {@code forward.url} alone is one named {@link #SITE}
 * @param timeout         an attempt not answered 2xx within it failed
 * @param schedule        the waits after each failed attempt; after the last one the event is failed
 * @param disableAfter4xx this many answers 4xx in a row (not 408, 429) from one endpoint disable it; 0: never
 */
public record ForwardSettings(List<Endpoint> endpoints, Duration timeout, List<Duration> schedule,
    int disableAfter4xx) {
  /** The name of the endpoint {@code forward.url} sets, and of every event written before there were several. */
  public static final String SITE = "site";

  /**
   * One receiver.
   *
   * @param name    what its rows, metrics and commands call it
   * @param url     where it is sent; it may carry credentials (user:pass@) or a key in its query: text shows
   *                {@link #shownUrl()}
   * @param secrets the shared HMAC keys, newest first (two while one is rotated); never logged
   * @param events  the event types it wants
   */
  public record Endpoint(String name, URI url, List<String> secrets, Set<String> events) {
    @Override
    public String toString() { // never the secret
      return name + " " + shownUrl() + " (events " + events + ")";
    }

    /** The URL as logs, anomalies (alerts) and the status page show it: scheme://host[:port]/path, nothing more. */
    public String shownUrl() {
      return url.getScheme() + "://" + url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort())
          + url.getRawPath();
    }

    /** The newest secret: the one {@code Paynotify-Signature} is keyed with. */
    public String secret() {
      return secrets.get(0);
    }
  }

  @Override
  public String toString() {
    return endpoints + ", timeout " + timeout.toMillis() + " ms, " + (schedule.size() + 1) + " attempts";
  }

  /** How long a claim holds an event: past it, the sender is presumed dead and another instance takes over. */
  public Duration lease() {
    return timeout.multipliedBy(2).plusSeconds(1);
  }

  /** Whether some endpoint wants events of {@code type}. */
  public boolean tells(String type) {
    return endpoints.stream().anyMatch(e -> e.events().contains(type));
  }

  /** For each event type, the endpoints that want it (in the order configured); a type nobody wants is absent. */
  public Map<String, List<String>> endpointsByType() {
    Map<String, List<String>> byType = new LinkedHashMap<>();
    for (Endpoint e : endpoints) {
      for (String type : e.events()) {
        byType.computeIfAbsent(type, t -> new ArrayList<>()).add(e.name());
      }
    }
    byType.replaceAll((type, names) -> List.copyOf(names));
    return byType;
  }
}
