package paynotify.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Platform;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.channel.wechat.WechatV2Channel;
import paynotify.channel.wechat.WechatV3Channel;
import paynotify.gateway.AlipayBills;
import paynotify.gateway.BillSource;
import paynotify.gateway.GatewayHttp;
import paynotify.gateway.WechatV2Bills;
import paynotify.gateway.WechatV3Bills;

/**
 * Where fetched bills are kept, how long, and who can be asked for them: each platform's download, signed with
 * the same keys as its order query (recovery's), none of them more than that query needs.
 *
 * @param dir     reconcile.bills_dir: one folder per channel, each bill beside its SHA-256
 * @param keep    retention.bills_days
 * @param sources by platform, built on the HTTP client of the command or service that fetches
 */
public record BillsConfig(Path dir, Duration keep, Map<Platform, Function<GatewayHttp, BillSource>> sources) {
  static BillsConfig read(ConfigReader c, ChannelsConfig channels, MerchantKeys keys) {
    Path dir = Path.of(c.string("reconcile.bills_dir", "data/bills"));
    Duration keep = Duration.ofDays(c.number("retention.bills_days", 400, 1, 3650));
    Map<Platform, Function<GatewayHttp, BillSource>> sources = new EnumMap<>(Platform.class);
    for (NotifyChannel channel : channels.enabled()) {
      if (channel instanceof AlipayChannel alipay && keys.alipay() != null) {
        URI url = RecoveryConfig.alipayUrl(c);
        String appId = c.string("alipay.app_id");
        sources.put(Platform.ALIPAY, http -> new AlipayBills(http, url, appId, keys.alipay(), alipay.signature(),
            Clock.systemUTC()));
      } else if (channel instanceof WechatV3Channel v3 && keys.wechatV3() != null) {
        // v3 when its merchant key is given (its file's hash is signed); it serves v2's trades too
        URI url = RecoveryConfig.url(c, "wechat_v3.gateway_url", RecoveryConfig.WECHAT_GATEWAY);
        String mchId = c.string("wechat_v3.mchid");
        MerchantKeys.WechatV3 merchant = keys.wechatV3();
        sources.put(Platform.WECHAT, http -> new WechatV3Bills(http, url, mchId, merchant.serial(), merchant.key(),
            v3.signature()));
      } else if (channel instanceof WechatV2Channel v2) {
        URI url = RecoveryConfig.url(c, "wechat_v2.gateway_url", RecoveryConfig.WECHAT_GATEWAY);
        String appId = c.string("wechat_v2.appid");
        String mchId = c.string("wechat_v2.mch_id");
        sources.putIfAbsent(Platform.WECHAT, http -> new WechatV2Bills(http, url, v2.signature(), appId, mchId));
      }
    }
    return new BillsConfig(dir, keep, Map.copyOf(sources));
  }
}
