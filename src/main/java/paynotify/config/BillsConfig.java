package paynotify.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import paynotify.channel.BillSource;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.daily.DailyCloseSettings;

/**
 * Where fetched bills are kept, how long, and who can be asked for them: each platform's download, signed with
 * the same keys as its order query (recovery's), none of them more than that query needs.
 *
 * @param dir     reconcile.bills_dir: one folder per channel, each bill beside its SHA-256
 * @param keep    retention.bills_days
 * @param sources by platform, built on the HTTP client of the command or service that fetches
 * @param daily   reconcile.daily: the close the service runs each day
 */
public record BillsConfig(Path dir, Duration keep, Map<Platform, Function<OutboundHttp, BillSource>> sources,
    DailyCloseSettings daily) {
  /**
   * The platforms whose bills are read, for messages: the others have none to read (xunhupay, epusdt and V免签
   * publish no bill API; epay's, Stripe's and PayPal's reports are not read yet).
   */
  public static final String BILL_PLATFORMS = OutboundConfig.BILL_NEEDS.keySet().stream().map(Platform::code)
      .collect(Collectors.joining(" or "));

  /** What fetching each platform's bill needs, for the message that says it is missing. */
  public static String needs(Platform platform) {
    return OutboundConfig.BILL_NEEDS.get(platform);
  }

  private static final LocalTime LATEST = LocalTime.of(22, 0);
  private static final DateTimeFormatter HOUR_MINUTE = DateTimeFormatter.ofPattern("H:mm");

  static BillsConfig read(ConfigReader c, OutboundConfig outbound) {
    Path dir = Path.of(c.string("reconcile.bills_dir", "data/bills"));
    Duration keep = Duration.ofDays(c.number("retention.bills_days", 400, 1, 3650));
    Map<Platform, Function<OutboundHttp, BillSource>> sources = new EnumMap<>(Platform.class);
    for (Outbound platform : outbound.platforms()) {
      if (platform.bills() != null) {
        sources.put(platform.platform(), platform.bills());
      }
    }
    return new BillsConfig(dir, keep, Map.copyOf(sources), daily(c, sources.keySet()));
  }

  /** reconcile.daily; every key read whether it is on or not (all are known keys of the shipped file). */
  private static DailyCloseSettings daily(ConfigReader c, Set<Platform> fetchable) {
    boolean enabled = c.bool("reconcile.daily.enabled", false);
    String atText = c.string("reconcile.daily.at", "10:30");
    LocalTime at;
    try {
      at = LocalTime.parse(atText, HOUR_MINUTE);
    } catch (DateTimeParseException e) {
      throw c.error("reconcile.daily.at", "'" + atText + "' is not a time of day (HH:MM, Beijing time; e.g. 10:30)");
    }
    if (at.isAfter(LATEST)) {
      throw c.error("reconcile.daily.at", atText + " is too late: a day's close is tried until an hour after it"
          + " starts, within the same day; " + LATEST + " at the latest (the bills are made by about 10:00)");
    }
    String repair = c.string("reconcile.daily.auto_repair", "none");
    if (!repair.equals("none") && !repair.equals("missing_local")) {
      throw c.error("reconcile.daily.auto_repair", "'" + repair + "' is not none or missing_local");
    }
    List<String> given = c.list("reconcile.daily.channels");
    if (!enabled) {
      return new DailyCloseSettings(false, at, List.of(), false, null);
    }
    List<String> channels = given != null ? given
        : fetchable.stream().map(Platform::code).sorted().toList();
    List<Platform> platforms = new ArrayList<>();
    for (String channel : channels) {
      Platform platform = OutboundConfig.BILL_NEEDS.keySet().stream().filter(p -> p.code().equals(channel))
          .findFirst().orElse(null);
      if (platform == null) {
        throw c.error("reconcile.daily.channels", "'" + channel + "' is not " + BILL_PLATFORMS + " (the platforms whose"
            + " bills can be fetched)");
      }
      if (!fetchable.contains(platform)) {
        throw c.error("reconcile.daily.channels", channel + "'s bill cannot be fetched: " + needs(platform));
      }
      platforms.add(platform);
    }
    if (channels.isEmpty()) {
      throw c.error("reconcile.daily.enabled", "true, but no channel's bill can be fetched: "
          + String.join(", or ", OutboundConfig.BILL_NEEDS.values()));
    }
    Path file = Path.of(c.source());
    if (!Files.isRegularFile(file)) {
      throw c.error("reconcile.daily.enabled", "true, but the close runs paynotify reconcile with the service's"
          + " configuration file, and there is none (" + file + ")");
    }
    return new DailyCloseSettings(true, at, List.copyOf(platforms), repair.equals("missing_local"),
        file.toAbsolutePath());
  }
}
