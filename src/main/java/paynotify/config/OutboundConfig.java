package paynotify.config;

import java.net.URI;
import java.time.Clock;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.channel.alipay.AlipayClients;
import paynotify.channel.creem.CreemChannel;
import paynotify.channel.creem.CreemClients;
import paynotify.channel.epay.EpayChannel;
import paynotify.channel.epay.EpayClients;
import paynotify.channel.lemonsqueezy.LemonSqueezyChannel;
import paynotify.channel.lemonsqueezy.LemonSqueezyClients;
import paynotify.channel.paddle.PaddleChannel;
import paynotify.channel.paddle.PaddleClients;
import paynotify.channel.stripe.StripeChannel;
import paynotify.channel.stripe.StripeClients;
import paynotify.channel.tokenpay.TokenPayChannel;
import paynotify.channel.tokenpay.TokenPayClients;
import paynotify.channel.wechat.WechatClients;
import paynotify.channel.wechat.WechatV2Channel;
import paynotify.channel.wechat.WechatV3Channel;
import paynotify.crypto.MerchantKey;

/**
 * Each platform's outbound side, read from its section and handed to its factory ({@code channel/<platform>/*Clients}):
 * the one registration a platform that can be asked, or whose bill can be fetched, is added to. Recovery and the
 * bills ask each factory for its pieces; what the factory needs beyond its channel is what only asking needs (the
 * platform's base URL; a merchant key, opt-in, from a file only the service's user can read).
 *
 * @param platforms one per platform whose channel is on, in the order they are tried for an order of unknown platform
 *                  (Stripe's and Paddle's last: they are asked for their undelivered events, not about orders; Lemon
 *                  Squeezy, asked by its own order id only, where the site keeps one)
 */
record OutboundConfig(List<Outbound> platforms) {
  static final String ALIPAY_GATEWAY = "https://openapi.alipay.com/gateway.do";
  static final String STRIPE_API = "https://api.stripe.com";
  static final String WECHAT_GATEWAY = "https://api.mch.weixin.qq.com";

  /** What makes a platform asked, for the message when none can be: every opt-in key, and WeChat Pay v2's channel. */
  static final String ASKING_NEEDS = "set alipay.app_private_key_file, or wechat_v3.merchant_private_key_file with"
      + " wechat_v3.merchant_serial_no, or epay.gateway_url, or stripe.api_key_file, or paddle.api_key_file, or"
      + " creem.api_key_file, or lemonsqueezy.api_key_file, or tokenpay.api_base, or turn on wechat_v2";

  /** What asking a platform whose channel may confirm before booking (confirm_before_book) needs. */
  static final Map<Platform, String> QUERY_NEEDS = Map.of(
      Platform.EPAY, "set epay.gateway_url (the aggregator's address: its api.php?act=order answers)",
      Platform.TOKENPAY, "set tokenpay.api_base (the TokenPay server's address: its /Query answers)");

  /** The platforms whose bills are read, in Platform's order, each with what fetching its bill needs. */
  static final Map<Platform, String> BILL_NEEDS = Collections.unmodifiableMap(new EnumMap<>(Map.of(
      Platform.ALIPAY, "set alipay.app_private_key_file (the application key signs the request)",
      Platform.WECHAT, "set wechat_v3.merchant_private_key_file and merchant_serial_no, or turn on wechat_v2")));

  /** Every section read whether or not its channel is on: every key of the shipped file is known. */
  static OutboundConfig read(ConfigReader c, ChannelsConfig channels, MerchantKeys keys) {
    List<Outbound> platforms = Stream.of(
            alipay(c, channels.enabled(AlipayChannel.class), keys.alipay()),
            epay(c, channels.enabled(EpayChannel.class)),
            wechat(c, channels.enabled(WechatV2Channel.class), channels.enabled(WechatV3Channel.class),
                keys.wechatV3()),
            tokenpay(c, channels.enabled(TokenPayChannel.class)),
            creem(c, channels.enabled(CreemChannel.class)),
            lemonSqueezy(c, channels.enabled(LemonSqueezyChannel.class)),
            stripe(c, channels.enabled(StripeChannel.class)),
            paddle(c, channels.enabled(PaddleChannel.class)))
        .filter(Objects::nonNull).toList();
    for (NotifyChannel channel : channels.enabled()) {
      if (channel.confirmsBeforeBooking()
          && platforms.stream().noneMatch(p -> p.platform() == channel.platform() && p.query() != null)) {
        throw c.error(channel.endpoint() + ".confirm_before_book", "true, but " + channel.platform().code()
            + " cannot be asked about an order, and its order query is what confirms a notification: "
            + QUERY_NEEDS.getOrDefault(channel.platform(), "it has no query") + ", or set it to false");
      }
    }
    return new OutboundConfig(platforms);
  }

  /** Opt-in: without the application key (it can refund), Alipay is not asked. */
  private static Outbound alipay(ConfigReader c, AlipayChannel channel, MerchantKey key) {
    URI url = RecoveryConfig.url(c, "alipay.gateway_url", ALIPAY_GATEWAY);
    return channel == null ? null
        : new AlipayClients(url, c.string("alipay.app_id"), key, channel.signature(), Clock.systemUTC());
  }

  /** Opt-in by its address (epay.gateway_url): the site's aggregator, asked with the key the channel has. */
  private static Outbound epay(ConfigReader c, EpayChannel channel) {
    String text = c.string("epay.gateway_url");
    URI url = text == null ? null : RecoveryConfig.url(c, "epay.gateway_url", text);
    boolean books = c.bool("epay.query_books", false);
    return channel == null ? null : new EpayClients(url, c.string("epay.pid"), c.secret("epay.key"), books);
  }

  /**
   * Opt-in by its address (tokenpay.api_base), asked with the ApiToken the channel has. Its answers are not signed, so
   * https, or plain http on this machine only: a TokenPay on the same host (its Kestrel on 127.0.0.1:5000, or a
   * container's port published on 127.0.0.1) is asked there; one elsewhere behind TLS.
   */
  private static Outbound tokenpay(ConfigReader c, TokenPayChannel channel) {
    String text = c.string("tokenpay.api_base");
    URI url = text == null ? null : RecoveryConfig.url(c, "tokenpay.api_base", text);
    return channel == null ? null : new TokenPayClients(url, c.secret("tokenpay.key"));
  }

  /**
   * Opt-in by the account's API key (creem.api_key_file): Creem has no key that can only read, and this one can do
   * whatever its API does (create checkouts and discount codes, cancel or upgrade subscriptions), so it is given only
   * to have checkouts asked about, and sent to Creem's hosts only (live, or Test Mode: another environment with its
   * own keys; or a local stand-in).
   */
  private static Outbound creem(ConfigReader c, CreemChannel channel) {
    URI url = RecoveryConfig.apiUrl(c, "creem.api_base", "Creem", CreemClients.HOSTS);
    String key = c.secret("creem.api_key");
    return channel == null ? null : new CreemClients(url, key, channel);
  }

  /**
   * Opt-in by the account's API key (lemonsqueezy.api_key_file): Lemon Squeezy's keys have no permissions to choose
   * from, so it can refund, and is read from a file only the service's user can read. Sent to Lemon Squeezy's API only
   * (or a local stand-in).
   */
  private static Outbound lemonSqueezy(ConfigReader c, LemonSqueezyChannel channel) {
    URI url = RecoveryConfig.apiUrl(c, "lemonsqueezy.api_base", "Lemon Squeezy", LemonSqueezyClients.HOSTS);
    String key = c.secret("lemonsqueezy.api_key");
    return channel == null ? null : new LemonSqueezyClients(url, key, c.string("lemonsqueezy.store_id"), channel);
  }

  /** v3 opt-in (without the merchant key, which can refund, it is not asked); v2 with the API key the channel has. */
  private static Outbound wechat(ConfigReader c, WechatV2Channel v2Channel, WechatV3Channel v3Channel,
      MerchantKeys.SerialKey merchant) {
    URI v2Url = RecoveryConfig.url(c, "wechat_v2.gateway_url", WECHAT_GATEWAY);
    URI v3Url = RecoveryConfig.url(c, "wechat_v3.gateway_url", WECHAT_GATEWAY);
    WechatClients.V2 v2 = v2Channel == null ? null : new WechatClients.V2(v2Url, v2Channel.signature());
    WechatClients.V3 v3 = v3Channel == null || merchant == null ? null : new WechatClients.V3(v3Url,
        c.string("wechat_v3.mchid"), merchant.serial(), merchant.key(), v3Channel.signature());
    if (ChannelsConfig.downloadsCertificates(c) && v3 != null) { // read whether or not the channel is on
      v3Channel.downloadCertificates(v3); // the platform certificates kept current with the same signed client
    }
    return v2 == null && v3 == null ? null : new WechatClients(v2, v3);
  }

  /**
   * A restricted key (rk_...) that can only read: a secret key (sk_...) can refund and pay out, and asking for
   * events needs none of that.
   */
  private static StripeClients stripe(ConfigReader c, StripeChannel channel) {
    URI url = RecoveryConfig.url(c, "stripe.api_base", STRIPE_API);
    String key = c.secret("stripe.api_key");
    if (channel == null) {
      return null;
    }
    if (key != null && !key.startsWith("rk_")) {
      throw c.error("stripe.api_key_file", "holds " + (key.startsWith("sk_") ? "a secret key (sk_...), which can"
          + " move money" : "no Stripe API key") + ": create a restricted key (Developers > API keys > Create"
          + " restricted key) with only Events: Read, and give that rk_... key");
    }
    return new StripeClients(url, key, channel);
  }

  /**
   * Opt-in by an API key (paddle.api_key_file) that needs only Notifications: read, with the notification
   * destination's id (paddle.notification_setting_id, ntfset_...): only that destination's failed deliveries are
   * fetched, not another site's on the same account.
   */
  private static PaddleClients paddle(ConfigReader c, PaddleChannel channel) {
    URI url = RecoveryConfig.apiUrl(c, "paddle.api_base", "Paddle", PaddleClients.HOSTS);
    String key = c.secret("paddle.api_key");
    String destination = c.string("paddle.notification_setting_id");
    if (destination != null && !destination.matches("ntfset_[a-z0-9]{26}")) {
      throw c.error("paddle.notification_setting_id", "'" + destination + "' is not a notification destination's id"
          + " (ntfset_..., Developer Tools > Notifications, the destination's ID)");
    }
    if (channel == null) {
      return null;
    }
    if (key != null && destination == null) {
      throw c.error("paddle.notification_setting_id", "missing: paddle.api_key_file is set, and recovery asks for the"
          + " failed deliveries to this service's destination only: give its id (ntfset_..., Developer Tools >"
          + " Notifications)");
    }
    return new PaddleClients(url, key, destination, channel);
  }
}
