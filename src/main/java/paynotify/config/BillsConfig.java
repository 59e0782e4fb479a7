package paynotify.config;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Platform;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.gateway.AlipayBills;
import paynotify.gateway.BillSource;
import paynotify.gateway.GatewayHttp;
import paynotify.gateway.MerchantKey;

/**
 * Where fetched bills are kept, how long, and who can be asked for them: each platform's download, signed with
 * the same keys as its order query (recovery's), none of them more than that query needs.
 *
 * @param dir     reconcile.bills_dir: one folder per channel, each bill beside its SHA-256
 * @param keep    retention.bills_days
 * @param sources by platform, built on the HTTP client of the command or service that fetches
 */
public record BillsConfig(Path dir, Duration keep, Map<Platform, Function<GatewayHttp, BillSource>> sources) {
  static BillsConfig read(ConfigReader c, ChannelsConfig channels) {
    Path dir = Path.of(c.string("reconcile.bills_dir", "data/bills"));
    Duration keep = Duration.ofDays(c.number("retention.bills_days", 400, 1, 3650));
    Map<Platform, Function<GatewayHttp, BillSource>> sources = new EnumMap<>(Platform.class);
    for (NotifyChannel channel : channels.enabled()) {
      if (channel instanceof AlipayChannel alipay) {
        MerchantKey key = RecoveryConfig.alipayKey(c);
        if (key != null) {
          String appId = c.string("alipay.app_id");
          sources.put(Platform.ALIPAY, http -> new AlipayBills(http, RecoveryConfig.alipayUrl(c), appId, key,
              alipay.signature(), Clock.systemUTC()));
        }
      }
    }
    return new BillsConfig(dir, keep, Map.copyOf(sources));
  }
}
