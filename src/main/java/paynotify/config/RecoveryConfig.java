package paynotify.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundHttp;
import paynotify.recovery.RecoverySettings;
import paynotify.recovery.MissedEventsFeed;
import paynotify.store.Database;
import paynotify.store.OrdersTable;

/**
 * The {@code recovery:} section, and the platform clients it asks through: each platform's query as its factory
 * builds it ({@link OutboundConfig}), opt-in where it needs a key that can move money. WeChat Pay v2 asks with the
 * API key the channel has (no certificate: that key alone moves no money out).
 *
 * @param settings the sweeper's
 * @param clients  one per platform that can be asked, in the order they are tried; built on the Vert.x the
 *                 service runs on
 * @param confirming the clients that confirm a bill's row before it is booked (repair book, auto_repair): the same,
 *                 and WeChat Pay v2 whatever recovery.enabled says (its channel's API key is all it needs)
 * @param missed   the platforms' lists walked (Stripe's and Paddle's undelivered events, each with a read-only API
 *                 key; Lemon Squeezy's orders, with lemonsqueezy.api_key_file), how far they were read kept in the
 *                 database given: those whose key is set
 * @param confirmationsPerMinute how many signed notifications a minute may ask their platform to confirm them
 *                 (confirm_before_book), a budget apart from the sweeper's
 */
public record RecoveryConfig(RecoverySettings settings, List<Function<OutboundHttp, TradeQuery>> clients,
    List<Function<OutboundHttp, TradeQuery>> confirming,
    List<BiFunction<OutboundHttp, Database, MissedEventsFeed>> missed, int confirmationsPerMinute) {
  private static final Logger LOG = LoggerFactory.getLogger(RecoveryConfig.class);

  static RecoveryConfig read(ConfigReader c, ChannelsConfig channels, OrdersTable orders, OutboundConfig outbound) {
    boolean enabled = c.bool("recovery.enabled", false);
    List<Outbound> askable = outbound.platforms().stream().filter(p -> p.query() != null).toList();
    // A platform whose query needs no key of its own (WeChat Pay v2) is asked once recovery is on, or another
    // platform's key was given; a bill's row is confirmed with it whatever recovery says
    boolean asking = enabled || askable.stream().anyMatch(Outbound::optedIn);
    List<Function<OutboundHttp, TradeQuery>> clients = askable.stream().filter(p -> asking || p.optedIn())
        .map(Outbound::query).toList();
    List<Function<OutboundHttp, TradeQuery>> confirming = askable.stream().map(Outbound::query).toList();
    // Each read as its webhooks by its channel: only a platform whose channel is on and whose API key is given
    List<BiFunction<OutboundHttp, Database, MissedEventsFeed>> missed = outbound.platforms().stream()
        .map(Outbound::undelivered).filter(Objects::nonNull)
        .<BiFunction<OutboundHttp, Database, MissedEventsFeed>>map(events -> (http, db) ->
            new MissedEventsFeed(events.apply(http), db)).toList();

    Duration minAge = Duration.ofSeconds(c.number("recovery.min_age_seconds", 120, 30, 86_400));
    Duration maxAge = Duration.ofHours(c.number("recovery.max_age_hours", 26, 1, 24 * 30));
    if (!minAge.minus(maxAge).isNegative()) {
      throw c.error("recovery.min_age_seconds", "must be shorter than recovery.max_age_hours");
    }
    Duration interval = Duration.ofSeconds(c.number("recovery.interval_seconds", 60, 5, 3600));
    int perMinute = c.integer("recovery.max_queries_per_minute", 30, 1, 6000);
    int confirmationsPerMinute = c.integer("recovery.max_confirmations_per_minute", 120, 1, 6000);
    long closeMinutes = c.number("recovery.close_unpaid_after_minutes", 0, 0, 24L * 60 * 30);
    Duration closeAfter = closeMinutes == 0 ? null : Duration.ofMinutes(closeMinutes);
    if (closeAfter != null && closeAfter.compareTo(maxAge) >= 0) {
      throw c.error("recovery.close_unpaid_after_minutes", "must be shorter than recovery.max_age_hours (orders"
          + " older than that are not asked about)");
    }
    if (closeAfter != null && orders.values().closed() == null) {
      throw c.error("recovery.close_unpaid_after_minutes", "set, but orders.status_values.closed is empty: the site"
          + " has no closed status to move the order to");
    }
    String createdAt = orders.columns().createdAt();
    if (enabled && createdAt == null) {
      throw c.error("recovery.enabled", "true, but orders.columns.created_at is empty: the sweeper takes unpaid"
          + " orders by their age; map the site's creation-time column");
    }
    if (enabled && clients.isEmpty() && missed.isEmpty()) {
      throw c.error("recovery.enabled", "true, but no platform can be asked: " + OutboundConfig.ASKING_NEEDS);
    }
    if (!enabled) {
      channels.enabled().stream().filter(NotifyChannel::confirmsBeforeBooking).forEach(ch -> LOG.warn("{}"
          + ".confirm_before_book is true but recovery.enabled is false: a notification its platform did not confirm"
          + " waits for the platform's next delivery alone, as no sweeper asks again", ch.endpoint()));
    }
    Duration timeout = Duration.ofMillis(c.number("recovery.timeout_ms", 10_000, 500, 60_000));
    List<Platform> platforms = channels.enabled().stream().map(NotifyChannel::platform).distinct().toList();
    RecoverySettings settings = new RecoverySettings(enabled, minAge, maxAge, interval, perMinute, closeAfter,
        createdAt, platformOf(c), platforms.size() == 1 ? platforms.get(0) : null, timeout,
        channels.enabled().stream().filter(NotifyChannel::confirmsBeforeBooking).map(NotifyChannel::platform)
            .collect(Collectors.toUnmodifiableSet()));
    return new RecoveryConfig(settings, clients, confirming, missed, confirmationsPerMinute);
  }

  /**
   * What the site's channel column says, by platform: the platforms' codes (and wechat_v2, wechat_v3) as
   * they are, then {@code recovery.channel_values}: {@code "1:alipay, 2:wechat"} for a site that stores ids
   * (dujiaoka's pay_id).
   */
  private static Map<String, Platform> platformOf(ConfigReader c) {
    Map<String, Platform> map = new HashMap<>();
    for (Platform p : Platform.values()) {
      map.put(p.code(), p);
    }
    map.put("wechat_v2", Platform.WECHAT);
    map.put("wechat_v3", Platform.WECHAT);
    List<String> values = c.list("recovery.channel_values");
    for (String entry : values == null ? List.<String>of() : values) {
      int colon = entry.lastIndexOf(':');
      String platform = colon < 0 ? "" : entry.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
      if (colon <= 0 || !map.containsKey(platform)) {
        throw c.error("recovery.channel_values", "'" + entry + "' is not VALUE:PLATFORM (e.g. 1:alipay, 2:wechat)");
      }
      map.put(entry.substring(0, colon).trim(), map.get(platform));
    }
    return Map.copyOf(map);
  }

  /**
   * The platform's base URL: the official one by default; over plain HTTP only on this machine (tests'
   * stand-ins), as anyone on the path could answer "paid" otherwise.
   */
  static URI url(ConfigReader c, String key, String fallback) {
    return checkedUrl(c, key, c.string(key, fallback));
  }

  /**
   * {@code key}'s URL of {@code platform}'s API, by default its first (live) host: https to one of its {@code hosts}
   * (an API key is sent to no other), or http on loopback (a local stand-in).
   */
  static URI apiUrl(ConfigReader c, String key, String platform, List<String> hosts) {
    URI url = url(c, key, "https://" + hosts.get(0));
    if ("https".equals(url.getScheme()) && !hosts.contains(url.getHost())) {
      throw c.error(key, "'" + url + "' is not " + platform + "'s API: https://" + String.join(" or https://", hosts));
    }
    return url;
  }

  /** {@code text}, the value of {@code key}, as an https URL (or http on loopback); a message naming key if not. */
  static URI checkedUrl(ConfigReader c, String key, String text) {
    URI url;
    try {
      url = new URI(text);
    } catch (URISyntaxException e) {
      throw c.error(key, "'" + text + "' is not a URL");
    }
    String host = url.getHost() == null ? "" : url.getHost();
    boolean loopback = host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]");
    if (!"https".equals(url.getScheme()) && !("http".equals(url.getScheme()) && loopback)) {
      throw c.error(key, "'" + text + "' must be https (plain http only on 127.0.0.1, for a local stand-in)");
    }
    return url;
  }
}
