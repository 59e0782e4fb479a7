package paynotify.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.channel.alipay.AlipayGateway;
import paynotify.channel.epay.EpayChannel;
import paynotify.channel.epay.EpayGateway;
import paynotify.channel.stripe.StripeChannel;
import paynotify.channel.stripe.StripeEvents;
import paynotify.channel.wechat.WechatV2Channel;
import paynotify.channel.wechat.WechatV2Gateway;
import paynotify.channel.wechat.WechatV3Channel;
import paynotify.channel.wechat.WechatV3Gateway;
import paynotify.crypto.MerchantKey;
import paynotify.net.OutboundHttp;
import paynotify.recovery.RecoverySettings;
import paynotify.recovery.StripeFeed;
import paynotify.store.Database;
import paynotify.store.OrdersTable;

/**
 * The {@code recovery:} section, and the platform clients it asks through: each built from its channel's
 * own signature rules and keys, plus what only asking needs (the platform's base URL; for Alipay and WeChat
 * Pay v3 the merchant's private key, opt-in, from a file only the service's user can read). WeChat Pay v2
 * asks with the API key the channel has (no certificate: that key alone moves no money out).
 *
 * @param settings the sweeper's
 * @param clients  one per platform that can be asked, in the order they are tried; built on the Vert.x the
 *                 service runs on
 * @param confirming the clients that confirm a bill's row before it is booked (repair book, auto_repair): the same,
 *                 and WeChat Pay v2 whatever recovery.enabled says (its channel's API key is all it needs)
 * @param stripe   Stripe's undelivered events, with a restricted read-only key (stripe.api_key_file), how far
 *                 they were read kept in the database given; null when not set
 */
public record RecoveryConfig(RecoverySettings settings, List<Function<OutboundHttp, TradeQuery>> clients,
    List<Function<OutboundHttp, TradeQuery>> confirming, BiFunction<OutboundHttp, Database, StripeFeed> stripe) {
  static final String ALIPAY_GATEWAY = "https://openapi.alipay.com/gateway.do";
  static final String STRIPE_API = "https://api.stripe.com";
  static final String WECHAT_GATEWAY = "https://api.mch.weixin.qq.com";

  static RecoveryConfig read(ConfigReader c, ChannelsConfig channels, OrdersTable orders, MerchantKeys keys) {
    // Read whether or not the channel is on: every key of the shipped file is known
    URI alipayUrl = alipayUrl(c);
    URI v2Url = url(c, "wechat_v2.gateway_url", WECHAT_GATEWAY);
    URI v3Url = url(c, "wechat_v3.gateway_url", WECHAT_GATEWAY);
    String epayUrl = c.string("epay.gateway_url");
    URI epay = epayUrl == null ? null : url(c, "epay.gateway_url", epayUrl);
    boolean epayBooks = c.bool("epay.query_books", false);
    URI stripeUrl = url(c, "stripe.api_base", STRIPE_API);
    String stripeKey = c.secret("stripe.api_key");
    BiFunction<OutboundHttp, Database, StripeFeed> stripe = null;
    List<Function<OutboundHttp, TradeQuery>> clients = new ArrayList<>();
    Function<OutboundHttp, TradeQuery> v3 = null;
    WechatV2Channel v2 = null;
    for (NotifyChannel channel : channels.enabled()) {
      if (channel instanceof AlipayChannel alipay) {
        add(clients, alipay(c, alipay, alipayUrl, keys.alipay()));
      } else if (channel instanceof WechatV3Channel wechat) {
        v3 = wechatV3(c, wechat, v3Url, keys.wechatV3());
      } else if (channel instanceof WechatV2Channel wechat) {
        v2 = wechat;
      } else if (channel instanceof EpayChannel && epay != null) {
        add(clients, epay(c, epay, epayBooks));
      } else if (channel instanceof StripeChannel stripeChannel && stripeKey != null) {
        stripe = stripe(c, stripeChannel, stripeUrl, stripeKey);
      }
    }
    // One WeChat client: v3 when its merchant key is given (it finds v2's orders too, one trade space), else
    // v2, whose API key the channel has: asked once recovery is on, or another platform's key was given; a bill's
    // row is confirmed with it whatever recovery says
    boolean enabled = c.bool("recovery.enabled", false);
    boolean asking = enabled || v3 != null || !clients.isEmpty();
    Function<OutboundHttp, TradeQuery> wechat = v3 != null ? v3 : v2 == null ? null : wechatV2(c, v2, v2Url);
    List<Function<OutboundHttp, TradeQuery>> confirming = new ArrayList<>(clients);
    add(confirming, wechat);
    add(clients, asking ? wechat : null);

    Duration minAge = Duration.ofSeconds(c.number("recovery.min_age_seconds", 120, 30, 86_400));
    Duration maxAge = Duration.ofHours(c.number("recovery.max_age_hours", 26, 1, 24 * 30));
    if (!minAge.minus(maxAge).isNegative()) {
      throw c.error("recovery.min_age_seconds", "must be shorter than recovery.max_age_hours");
    }
    Duration interval = Duration.ofSeconds(c.number("recovery.interval_seconds", 60, 5, 3600));
    int perMinute = c.integer("recovery.max_queries_per_minute", 30, 1, 6000);
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
    if (enabled && clients.isEmpty() && stripe == null) {
      throw c.error("recovery.enabled", "true, but no platform can be asked: set alipay.app_private_key_file, or"
          + " wechat_v3.merchant_private_key_file with wechat_v3.merchant_serial_no, or epay.gateway_url, or"
          + " stripe.api_key_file, or turn on wechat_v2");
    }
    Duration timeout = Duration.ofMillis(c.number("recovery.timeout_ms", 10_000, 500, 60_000));
    List<Platform> platforms = channels.enabled().stream().map(NotifyChannel::platform).distinct().toList();
    RecoverySettings settings = new RecoverySettings(enabled, minAge, maxAge, interval, perMinute, closeAfter,
        createdAt, platformOf(c), platforms.size() == 1 ? platforms.get(0) : null, timeout);
    return new RecoveryConfig(settings, List.copyOf(clients), List.copyOf(confirming), stripe);
  }

  private static void add(List<Function<OutboundHttp, TradeQuery>> clients, Function<OutboundHttp, TradeQuery> client) {
    if (client != null) {
      clients.add(client);
    }
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

  /** Opt-in: without the application key (it can refund), Alipay is not asked. */
  private static Function<OutboundHttp, TradeQuery> alipay(ConfigReader c, AlipayChannel channel, URI url,
      MerchantKey key) {
    if (key == null) {
      return null;
    }
    String appId = c.string("alipay.app_id");
    return http -> new AlipayGateway(http, url, appId, key, channel.signature(), java.time.Clock.systemUTC());
  }


  /**
   * A restricted key (rk_...) that can only read: a secret key (sk_...) can refund and pay out, and asking for
   * events needs none of that.
   */
  private static BiFunction<OutboundHttp, Database, StripeFeed> stripe(ConfigReader c, StripeChannel channel, URI url,
      String key) {
    if (!key.startsWith("rk_")) {
      throw c.error("stripe.api_key_file", "holds " + (key.startsWith("sk_") ? "a secret key (sk_...), which can"
          + " move money" : "no Stripe API key") + ": create a restricted key (Developers > API keys > Create"
          + " restricted key) with only Events: Read, and give that rk_... key");
    }
    return (http, db) -> new StripeFeed(new StripeEvents(http, url, key), channel, db);
  }

  /** Opt-in by its address (epay.gateway_url): the site's aggregator, asked with the key the channel has. */
  private static Function<OutboundHttp, TradeQuery> epay(ConfigReader c, URI url, boolean books) {
    String pid = c.string("epay.pid");
    String key = c.secret("epay.key");
    return http -> new EpayGateway(http, url, pid, key, books);
  }

  /** alipay.gateway_url, the official one by default. */
  static URI alipayUrl(ConfigReader c) {
    return url(c, "alipay.gateway_url", ALIPAY_GATEWAY);
  }

  private static Function<OutboundHttp, TradeQuery> wechatV2(ConfigReader c, WechatV2Channel channel, URI url) {
    String appId = c.string("wechat_v2.appid");
    String mchId = c.string("wechat_v2.mch_id");
    return http -> new WechatV2Gateway(http, url, channel.signature(), appId, mchId);
  }

  /** Opt-in: without the merchant key (it can refund), v3 is not asked. */
  private static Function<OutboundHttp, TradeQuery> wechatV3(ConfigReader c, WechatV3Channel channel, URI url,
      MerchantKeys.WechatV3 merchant) {
    if (merchant == null) {
      return null;
    }
    String mchId = c.string("wechat_v3.mchid");
    return http -> new WechatV3Gateway(http, url, mchId, merchant.serial(), merchant.key(), channel.signature());
  }


  /**
   * The platform's base URL: the official one by default; over plain HTTP only on this machine (tests'
   * stand-ins), as anyone on the path could answer "paid" otherwise.
   */
  static URI url(ConfigReader c, String key, String fallback) {
    return checkedUrl(c, key, c.string(key, fallback));
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
