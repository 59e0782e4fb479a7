package paynotify.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Currency;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Money;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.alipay.AlipayCertRules;
import paynotify.channel.alipay.AlipayCertificates;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.channel.alipay.AlipaySignature;
import paynotify.channel.creem.CreemChannel;
import paynotify.channel.epay.EpayChannel;
import paynotify.channel.epusdt.EpusdtChannel;
import paynotify.channel.lemonsqueezy.LemonSqueezyChannel;
import paynotify.channel.paddle.PaddleChannel;
import paynotify.channel.paddle.PaddleSignature;
import paynotify.channel.paypal.PaypalChannel;
import paynotify.channel.paypal.VerifyEndpoint;
import paynotify.channel.stripe.StripeChannel;
import paynotify.channel.stripe.StripeSignature;
import paynotify.channel.tokenpay.TokenPayChannel;
import paynotify.channel.vmq.VmqChannel;
import paynotify.channel.wechat.WechatV2Channel;
import paynotify.channel.wechat.WechatV2Signature;
import paynotify.channel.wechat.WechatV3Channel;
import paynotify.channel.wechat.WechatV3Signature;
import paynotify.channel.xunhupay.XunhupayChannel;
import paynotify.crypto.PublicKeys;
import paynotify.store.OrderNumbers;
import paynotify.store.OrdersTable.AmountUnit;

/**
 * The notify channels, built from the configuration. A channel runs only when its section is
 * set; a half-set section stops the start with the key that is missing. The paths of the others
 * answer 404 with the keys that would switch them on.
 *
 * @param disabled path -> the configuration keys that enable it
 */
public record ChannelsConfig(List<NotifyChannel> enabled, Map<String, String> disabled) {
  // The start's lines about the channels have always said "Channels": an operator's log filter keeps finding them.
  private static final Logger LOG = LoggerFactory.getLogger("paynotify.config.Channels");

  /**
   * @param numbers how the site writes its order numbers (orders.out_trade_no): the template binds a shared key
   * @param unit    what the site's amount column counts (orders.amount_unit): a zero-decimal currency's amounts
   */
  static ChannelsConfig from(ConfigReader c, Clock clock, OrderNumbers numbers, AmountUnit unit) {
    List<NotifyChannel> enabled = new ArrayList<>();
    Map<String, String> disabled = new LinkedHashMap<>();
    add(enabled, disabled, AlipayChannel.PATH, alipay(c, clock),
        "set alipay.app_id and alipay.public_key_file (or PAYNOTIFY_ALIPAY_PUBLIC_KEY), or alipay.app_id and the three"
            + " certificate files alipay.app_cert_file, alipay.alipay_cert_file, alipay.alipay_root_cert_file");
    add(enabled, disabled, WechatV2Channel.PATH, wechatV2(c),
        "set wechat_v2.appid, wechat_v2.mch_id and wechat_v2.api_key_file (or PAYNOTIFY_WECHAT_V2_API_KEY)");
    add(enabled, disabled, WechatV3Channel.PATH, wechatV3(c, clock),
        "set wechat_v3.mchid, wechat_v3.appid, wechat_v3.apiv3_key_file and wechat_v3.platform_keys");
    add(enabled, disabled, EpayChannel.PATH, epay(c), "set epay.pid and epay.key_file (or PAYNOTIFY_EPAY_KEY)");
    add(enabled, disabled, StripeChannel.PATH, stripe(c, clock, unit),
        "set stripe.webhook_secrets_file (or PAYNOTIFY_STRIPE_WEBHOOK_SECRET) and stripe.currency");
    add(enabled, disabled, PaypalChannel.PATH, paypal(c),
        "set paypal.receiver_email (or receiver_id) and paypal.currency");
    add(enabled, disabled, XunhupayChannel.PATH, xunhupay(c),
        "set xunhupay.appid and xunhupay.appsecret_file (or PAYNOTIFY_XUNHUPAY_APPSECRET)");
    add(enabled, disabled, EpusdtChannel.PATH, epusdt(c, numbers), "set epusdt.token_file (or PAYNOTIFY_EPUSDT_TOKEN)");
    add(enabled, disabled, VmqChannel.PATH, vmq(c, numbers), "set vmq.key_file (or PAYNOTIFY_VMQ_KEY)");
    add(enabled, disabled, PaddleChannel.PATH, paddle(c, clock, numbers, unit), "set paddle.webhook_secret_file (or"
        + " paddle.webhook_secrets_file, or PAYNOTIFY_PADDLE_WEBHOOK_SECRET) and paddle.currency");
    add(enabled, disabled, TokenPayChannel.PATH, tokenpay(c, numbers),
        "set tokenpay.key_file (or PAYNOTIFY_TOKENPAY_KEY)");
    add(enabled, disabled, LemonSqueezyChannel.PATH, lemonSqueezy(c, numbers, unit),
        "set lemonsqueezy.signing_secret_file (or PAYNOTIFY_LEMONSQUEEZY_SIGNING_SECRET), lemonsqueezy.store_id and"
            + " lemonsqueezy.currency");
    add(enabled, disabled, CreemChannel.PATH, creem(c, numbers, unit),
        "set creem.webhook_secret_file (or PAYNOTIFY_CREEM_WEBHOOK_SECRET) and creem.currency");
    return new ChannelsConfig(List.copyOf(enabled), Map.copyOf(disabled));
  }

  /**
   * Review finding 4: Stripe, Paddle, Lemon Squeezy and Creem send a zero-decimal currency's amounts in its unit (1000
   * JPY is 1000), which orders.amount_unit yuan reads as 10.00: every payment of such a site would be an
   * amount_mismatch. Warned, not refused: a site may keep its yen amounts scaled by 100 on purpose.
   */
  private static void warnZeroDecimal(String key, String currency, NotifyChannel channel, AmountUnit unit) {
    String code = currency.toUpperCase(Locale.ROOT);
    if (unit == AmountUnit.YUAN && zeroDecimal(code)) {
      LOG.warn("{} is {}, a currency without decimals: {} sends 1000 {} as 1000, and orders.amount_unit yuan reads"
          + " an order of 1000 as 100000, so every payment would be an amount_mismatch; keep the amounts in an"
          + " integer column and set orders.amount_unit: cents (docs/channels.md)", key, currency, channel.endpoint(),
          code);
    }
  }

  private static boolean zeroDecimal(String code) {
    try {
      return Currency.getInstance(code).getDefaultFractionDigits() == 0; // ISO 4217's minor unit: JPY, KRW, VND...
    } catch (IllegalArgumentException e) { // no ISO code: the platform refuses it, not this check
      return false;
    }
  }

  /** The platforms of the enabled channels: the ones whose trades are booked. */
  public Set<Platform> platforms() {
    return enabled.stream().map(NotifyChannel::platform).collect(Collectors.toUnmodifiableSet());
  }

  /** The enabled channel of {@code type}, or null when it is off: what its platform's clients are built with. */
  <T extends NotifyChannel> T enabled(Class<T> type) {
    return enabled.stream().filter(type::isInstance).map(type::cast).findFirst().orElse(null);
  }

  private static void add(List<NotifyChannel> enabled, Map<String, String> disabled, String path,
      NotifyChannel channel, String hint) {
    if (channel != null) {
      enabled.add(channel);
    } else {
      disabled.put(path, hint + " in the configuration");
    }
  }

  /** Alipay's three certificate files (公钥证书模式), in place of alipay.public_key_file (公钥模式). */
  private static final List<String> ALIPAY_CERT_FILES = List.of("alipay.app_cert_file", "alipay.alipay_cert_file",
      "alipay.alipay_root_cert_file");

  private static NotifyChannel alipay(ConfigReader c, Clock clock) {
    String appId = c.string("alipay.app_id");
    String key = c.publicKey("alipay.public_key");
    Map<String, String> certFiles = new LinkedHashMap<>();
    ALIPAY_CERT_FILES.forEach(k -> certFiles.put(k, c.string(k)));
    List<String> certsSet = certFiles.keySet().stream().filter(k -> certFiles.get(k) != null).toList();
    if (unset(appId, key) && certsSet.isEmpty()) {
      return null;
    }
    require(c, "alipay.app_id", appId);
    String signType = c.string("alipay.sign_type", AlipaySignature.Algorithm.RSA2.name());
    AlipaySignature.Algorithm algorithm;
    try {
      algorithm = AlipaySignature.Algorithm.valueOf(signType);
    } catch (IllegalArgumentException e) {
      throw c.error("alipay.sign_type", "'" + signType + "' is not RSA2 (or legacy RSA)");
    }
    String sellerId = c.string("alipay.seller_id");
    if (certsSet.isEmpty()) {
      require(c, "alipay.public_key_file", key);
      PublicKey publicKey = rsaKey(c, keyName(c, "alipay.public_key"), key, "Alipay public key");
      return new AlipayChannel(new AlipaySignature(publicKey, algorithm, appId, sellerId));
    }
    if (key != null) {
      throw c.error(keyName(c, "alipay.public_key"), "set either the public key (公钥模式: alipay.public_key_file) or"
          + " the three certificates (公钥证书模式: " + String.join(", ", ALIPAY_CERT_FILES) + "), not both: keep the"
          + " mode chosen at 支付宝开放平台 → 开发设置 → 接口加签方式");
    }
    if (certsSet.size() < ALIPAY_CERT_FILES.size()) {
      String missing = ALIPAY_CERT_FILES.stream().filter(k -> certFiles.get(k) == null)
          .collect(Collectors.joining(" and "));
      throw c.error(missing.split(" ")[0], "missing: certificate mode (公钥证书模式) needs all three files, set "
          + missing + " (appCertPublicKey_<appid>.crt, alipayCertPublicKey_RSA2.crt, alipayRootCert.crt, downloaded"
          + " at 支付宝开放平台 → 开发设置 → 接口加签方式 → 证书)");
    }
    X509Certificate appCert = c.certificates("alipay.app_cert_file").get(0);
    X509Certificate alipayCert = c.certificates("alipay.alipay_cert_file").get(0);
    List<X509Certificate> roots = c.certificates("alipay.alipay_root_cert_file");
    if (AlipayCertRules.sn(appCert).equals(AlipayCertRules.sn(alipayCert))) {
      throw c.error("alipay.alipay_cert_file", "is the application's certificate (应用公钥证书), the same as"
          + " alipay.app_cert_file: name alipayCertPublicKey_RSA2.crt (支付宝公钥证书)");
    }
    AlipayCertificates certs;
    try {
      certs = new AlipayCertificates(appCert, alipayCert, roots, algorithm, clock);
    } catch (IllegalArgumentException e) {
      throw c.error("alipay.alipay_root_cert_file", e.getMessage());
    }
    LOG.info("alipay: certificate mode, app_cert_sn {}, alipay_cert_sn {}, alipay_root_cert_sn {}", certs.appCertSn(),
        certs.configuredSn(), certs.rootCertSn());
    return new AlipayChannel(new AlipaySignature(certs, appId, sellerId));
  }

  private static NotifyChannel wechatV2(ConfigReader c) {
    String appId = c.string("wechat_v2.appid");
    String mchId = c.string("wechat_v2.mch_id");
    String apiKey = c.secret("wechat_v2.api_key");
    if (unset(appId, mchId, apiKey)) {
      return null;
    }
    require(c, "wechat_v2.appid", appId);
    require(c, "wechat_v2.mch_id", mchId);
    require(c, "wechat_v2.api_key_file", apiKey);
    if (apiKey.length() != 32) {
      throw c.error(keyName(c, "wechat_v2.api_key"), "the API key (API密钥) has 32 characters, this has " + apiKey.length());
    }
    String signType = c.string("wechat_v2.sign_type", WechatV2Signature.MD5);
    if (!WechatV2Signature.SIGN_TYPES.contains(signType)) {
      throw c.error("wechat_v2.sign_type", "'" + signType + "' is not MD5 or HMAC-SHA256");
    }
    return new WechatV2Channel(apiKey, signType, appId, mchId);
  }

  private static NotifyChannel wechatV3(ConfigReader c, Clock clock) {
    String mchId = c.string("wechat_v3.mchid");
    String appId = c.string("wechat_v3.appid");
    String apiV3Key = c.secret("wechat_v3.apiv3_key");
    List<ConfigReader> keys = c.sections("wechat_v3.platform_keys");
    if (unset(mchId, appId, apiV3Key) && keys.isEmpty()) {
      return null;
    }
    require(c, "wechat_v3.mchid", mchId);
    require(c, "wechat_v3.appid", appId);
    require(c, "wechat_v3.apiv3_key_file", apiV3Key);
    if (apiV3Key.getBytes(StandardCharsets.UTF_8).length != 32) {
      throw c.error(keyName(c, "wechat_v3.apiv3_key"), "the APIv3 key (APIv3密钥) has 32 characters");
    }
    if (keys.isEmpty() && !downloadsCertificates(c)) {
      throw c.error("wechat_v3.platform_keys", "missing: list the WeChat Pay public key (id + key_file) and/or "
          + "platform certificates (key_file); or give wechat_v3.merchant_private_key_file, and the service downloads"
          + " the platform certificates itself");
    }
    if (keys.isEmpty()) {
      LOG.info("wechat_v3.platform_keys is empty: notifications verify with the platform certificates downloaded"
          + " from WeChat Pay (a merchant on the WeChat Pay public key lists it there)");
    }
    Map<String, PublicKey> byId = new LinkedHashMap<>();
    Set<String> publicKeyIds = new HashSet<>();
    for (ConfigReader k : keys) {
      PlatformKey key = platformKey(k);
      if (byId.put(WechatV3Signature.keyId(key.id()), key.key()) != null) {
        throw k.error("id", "'" + key.id() + "' is listed twice");
      }
      if (!key.certificate()) {
        publicKeyIds.add(WechatV3Signature.keyId(key.id()));
      }
    }
    Duration window = Duration.ofSeconds(c.number("wechat_v3.timestamp_window_seconds", 0, 0, 86_400));
    return new WechatV3Channel(byId, publicKeyIds, apiV3Key.getBytes(StandardCharsets.UTF_8), mchId, appId, window,
        clock);
  }

  /**
   * Whether the service downloads WeChat Pay's platform certificates itself: where the merchant key is given (that
   * key is the owner's yes to calling WeChat, and signs the download) and wechat_v3.download_certificates is not
   * false.
   */
  static boolean downloadsCertificates(ConfigReader c) {
    boolean wanted = c.bool("wechat_v3.download_certificates", true);
    return wanted && c.string("wechat_v3.merchant_private_key_file") != null;
  }

  /** One of wechat_v3.platform_keys: a WeChat Pay public key (PUB_KEY_ID_...) or a platform certificate. */
  private record PlatformKey(String id, PublicKey key, boolean certificate) {}

  /** A WeChat Pay public key (PUB_KEY_ID_...) with its id, or a platform certificate named by its serial. */
  private static PlatformKey platformKey(ConfigReader k) {
    String text = k.publicKey("key");
    require(k, "key_file", text);
    if (text.contains("BEGIN CERTIFICATE")) {
      try {
        X509Certificate cert = PublicKeys.parseCertificate(text);
        String serial = PublicKeys.serial(cert);
        return new PlatformKey(k.string("id", serial), cert.getPublicKey(), true);
      } catch (IllegalArgumentException e) {
        throw k.error(keyName(k, "key"), e.getMessage());
      }
    }
    String id = k.string("id");
    require(k, "id", id);
    return new PlatformKey(id, rsaKey(k, keyName(k, "key"), text, "WeChat Pay public key"), false);
  }

  private static NotifyChannel epay(ConfigReader c) {
    String pid = c.string("epay.pid");
    String key = c.secret("epay.key");
    boolean confirm = c.bool("epay.confirm_before_book", false); // OutboundConfig refuses it without the query
    if (unset(pid, key)) {
      return null;
    }
    require(c, "epay.pid", pid);
    require(c, "epay.key_file", key);
    List<String> types = c.list("epay.payment_types");
    if (types == null) {
      return new EpayChannel(pid, key, EpayChannel.PAYMENT_TYPES, confirm);
    }
    if (types.isEmpty()) {
      throw c.error("epay.payment_types", "empty: leave it out for " + EpayChannel.PAYMENT_TYPES + ", or list the"
          + " platform's types");
    }
    for (String type : types) {
      if (!type.matches("[A-Za-z0-9]+")) { // the reference platform's own rule for a type's name
        throw c.error("epay.payment_types", "'" + type + "' is not a payment type (letters and digits, e.g. alipay)");
      }
    }
    return new EpayChannel(pid, key, types, confirm);
  }

  private static NotifyChannel xunhupay(ConfigReader c) {
    String appId = c.string("xunhupay.appid");
    String secret = c.secret("xunhupay.appsecret");
    if (unset(appId, secret)) {
      return null;
    }
    require(c, "xunhupay.appid", appId);
    require(c, "xunhupay.appsecret_file", secret);
    return new XunhupayChannel(appId, secret);
  }

  private static NotifyChannel epusdt(ConfigReader c, OrderNumbers numbers) {
    String token = c.secret("epusdt.token");
    String pid = c.string("epusdt.pid");
    if (unset(token, pid)) {
      return null;
    }
    require(c, "epusdt.token_file", token);
    // The callbacks carry no currency: amount is in the fiat the order was created in, booked 1:1 as the site's.
    String currency = c.string("epusdt.currency", "CNY");
    currencyCode(c, "epusdt.currency", currency, "such as CNY");
    LOG.info("epusdt: amount booked 1:1 as {} (epusdt.currency): create every epusdt order in that fiat",
        currency.toUpperCase(Locale.ROOT));
    if (pid == null && numbers == OrderNumbers.AS_IS) {
      warnShared("epusdt: neither orders.out_trade_no nor epusdt.pid", "epusdt token");
    }
    return new EpusdtChannel(token, pid);
  }

  private static NotifyChannel tokenpay(ConfigReader c, OrderNumbers numbers) {
    String apiToken = c.secret("tokenpay.key");
    boolean confirm = c.bool("tokenpay.confirm_before_book", false); // OutboundConfig refuses it without the query
    if (apiToken == null) {
      return null;
    }
    // A notification says its BaseCurrency: another than this one is booked as foreign money, never converted.
    String currency = c.string("tokenpay.currency", "CNY");
    currencyCode(c, "tokenpay.currency", currency, "such as CNY");
    if (numbers == OrderNumbers.AS_IS) { // its notifications name no merchant: one ApiToken per TokenPay instance
      warnShared("tokenpay: no orders.out_trade_no", "TokenPay instance (ApiToken)");
    }
    return new TokenPayChannel(apiToken, currency, confirm);
  }

  /**
   * Review S2: a key that binds a message to nothing else (V免签's one per server, an epusdt token without pid, a
   * TokenPay instance's ApiToken), or an account both sites sell on (a Paddle account, a Lemon Squeezy or Creem store),
   * lets a second site on it pay this one's order of the same number, unless the numbers are told apart.
   */
  private static void warnShared(String what, String key) {
    LOG.warn("{} is set: another site on the same {} (numbered as yours: a date and a counter) could pay your order of"
        + " its number with its own genuine message; give your numbers a prefix of your own (orders.out_trade_no:"
        + " \"A{order_no}\"; docs/channels.md)", what, key);
  }

  private static NotifyChannel vmq(ConfigReader c, OrderNumbers numbers) {
    String key = c.secret("vmq.key");
    if (key == null) {
      return null;
    }
    String field = c.string("vmq.order_field", VmqChannel.OrderField.PAY_ID.parameter);
    VmqChannel.OrderField orderField = Arrays.stream(VmqChannel.OrderField.values())
        .filter(f -> f.parameter.equals(field)).findFirst()
        .orElseThrow(() -> c.error("vmq.order_field", "'" + field + "' is not payId or param"));
    String shift = c.string("vmq.max_price_shift", "0.10");
    long shiftCents;
    try {
      shiftCents = Money.yuanToCents("vmq.max_price_shift", shift);
    } catch (RejectedNotification e) {
      throw c.error("vmq.max_price_shift", "'" + shift + "' is not an amount in yuan such as 0.10");
    }
    if (shiftCents > 100) { // the servers shift by cents; a yuan apart is another price, or a re-split one
      throw c.error("vmq.max_price_shift", shift + " is more than 1.00");
    }
    String pattern = c.string("vmq.order_pattern");
    Pattern orderPattern;
    try {
      orderPattern = pattern == null ? null : Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw c.error("vmq.order_pattern", "'" + pattern + "' is not a regular expression: " + e.getDescription());
    }
    if (orderPattern == null) {
      LOG.warn("vmq.order_pattern is not set: V免签 signs its values without separators, so an order number one"
          + " character shorter or longer than another could be paid with the other's sign; set it to your order"
          + " numbers' one length (docs/channels.md, V免签)");
      if (numbers == OrderNumbers.AS_IS) {
        warnShared("vmq: neither orders.out_trade_no nor vmq.order_pattern", "V免签 server (one key)");
      }
    }
    return new VmqChannel(key, orderField, orderPattern, shiftCents);
  }

  private static NotifyChannel paypal(ConfigReader c) {
    String email = c.string("paypal.receiver_email");
    String id = c.string("paypal.receiver_id");
    String currency = c.string("paypal.currency");
    if (unset(email, id, currency)) {
      return null;
    }
    if (email == null && id == null) {
      throw c.error("paypal.receiver_email", "missing: set it (or paypal.receiver_id) to the merchant account, "
          + "checked on every IPN");
    }
    require(c, "paypal.currency", currency);
    currencyCode(c, "paypal.currency", currency, "(e.g. USD)");
    // PayPal writes these without decimals (mc_gross=1000 is 1000 JPY): read as two-decimal amounts they
    // would be booked 100 times too large, every payment an amount_mismatch.
    if (Set.of("JPY", "HUF", "TWD").contains(currency.toUpperCase(Locale.ROOT))) {
      throw c.error("paypal.currency", currency + " has no decimals at PayPal, which this version does not read yet");
    }
    String field = c.string("paypal.order_field", "invoice");
    PaypalChannel.OrderField orderField = switch (field) {
      case "invoice" -> PaypalChannel.OrderField.INVOICE;
      case "custom" -> PaypalChannel.OrderField.CUSTOM;
      default -> throw c.error("paypal.order_field", "'" + field + "' is not invoice or custom");
    };
    boolean sandbox = c.bool("paypal.sandbox", false);
    URI verifyUrl = paypalVerifyUrl(c, sandbox);
    long timeout = c.number("paypal.verify_timeout_ms", 10_000, 100, 60_000);
    return new PaypalChannel(email, id, currency, orderField, sandbox, verifyUrl, timeout);
  }

  /**
   * Who decides which IPNs are genuine: PayPal's live hosts, or with {@code paypal.sandbox: true} the
   * sandbox's (whose IPN Simulator anyone can use, so never for live orders); a verifier on this machine
   * for tests and local checks. Over plain HTTP elsewhere anyone on the path could answer VERIFIED.
   */
  private static URI paypalVerifyUrl(ConfigReader c, boolean sandbox) {
    String url = c.string("paypal.ipn_verify_url", sandbox ? VerifyEndpoint.SANDBOX_URL : VerifyEndpoint.LIVE_URL);
    URI verifyUrl;
    try {
      verifyUrl = new URI(url);
    } catch (URISyntaxException e) {
      throw c.error("paypal.ipn_verify_url", "'" + url + "' is not a URL");
    }
    switch (VerifyEndpoint.of(verifyUrl)) {
      case LIVE -> {
        if (sandbox) {
          throw c.error("paypal.ipn_verify_url", "'" + url + "' is PayPal's live endpoint, but paypal.sandbox is true"
              + " (the sandbox's is " + VerifyEndpoint.SANDBOX_URL + ")");
        }
      }
      case SANDBOX -> {
        if (!sandbox) {
          throw c.error("paypal.sandbox", "false, but paypal.ipn_verify_url '" + url + "' is PayPal's sandbox, whose"
              + " IPN Simulator lets anyone pay live orders: try the sandbox on a separate instance with"
              + " paypal.sandbox: true and a copy of the database");
        }
      }
      case LOOPBACK -> LOG.warn("paypal.ipn_verify_url {} is on this machine: whatever answers there decides which"
          + " IPNs are genuine (tests and local checks only)", url);
      case OTHER -> throw c.error("paypal.ipn_verify_url", "'" + url + "' is not PayPal's (" + VerifyEndpoint.LIVE_URL
          + (sandbox ? ", or with paypal.sandbox: true " + VerifyEndpoint.SANDBOX_URL : "") + ")");
    }
    if (sandbox) {
      LOG.warn("paypal.sandbox is true: IPNs are verified by PayPal's sandbox and booked as test money"
          + " (livemode false): never run this on the live orders table");
    }
    return verifyUrl;
  }

  /**
   * The endpoint's signing secrets: {@code stripe.webhook_secrets_file} (one per line) or
   * {@code PAYNOTIFY_STRIPE_WEBHOOK_SECRET} (stripe.webhook_secret; several separated by commas or
   * newlines). Two while Stripe rolls a secret.
   */
  private static NotifyChannel stripe(ConfigReader c, Clock clock, AmountUnit unit) {
    String inline = c.string("stripe.webhook_secret");
    String file = c.fileContent("stripe.webhook_secrets_file"); // inline, it is stripe.webhook_secret
    String currency = c.string("stripe.currency");
    if (unset(inline, file, currency)) {
      return null;
    }
    if (inline != null && file != null) {
      throw c.error("stripe.webhook_secret", "set either PAYNOTIFY_STRIPE_WEBHOOK_SECRET (stripe.webhook_secret)"
          + " or stripe.webhook_secrets_file, not both");
    }
    String key = inline != null ? "stripe.webhook_secret" : "stripe.webhook_secrets_file";
    require(c, "stripe.webhook_secrets_file", inline != null ? inline : file);
    require(c, "stripe.currency", currency);
    List<String> secrets = new ArrayList<>();
    for (String line : (inline != null ? inline : file).split("[,\\s]+")) {
      if (line.isEmpty()) {
        continue;
      }
      if (!line.startsWith("whsec_")) { // never the value itself in the message: it may be a real secret
        throw c.error(key, "entry " + (secrets.size() + 1) + " is not a webhook signing secret (whsec_...)");
      }
      secrets.add(line);
    }
    if (secrets.isEmpty()) {
      throw c.error(key, "no webhook signing secret (whsec_...)");
    }
    currencyCode(c, "stripe.currency", currency, "such as usd");
    Duration tolerance = Duration.ofSeconds(c.number("stripe.tolerance_seconds",
        StripeSignature.DEFAULT_TOLERANCE.toSeconds(), 1, 86_400));
    boolean testMode = testMode(c, "stripe", "test-mode events (livemode false)");
    NotifyChannel stripe = new StripeChannel(secrets, tolerance, currency, testMode, clock);
    warnZeroDecimal("stripe.currency", currency, stripe, unit);
    return stripe;
  }

  /**
   * The notification destination's secret key: {@code paddle.webhook_secret_file} (or
   * {@code PAYNOTIFY_PADDLE_WEBHOOK_SECRET}), or {@code paddle.webhook_secrets_file}, one a line, while a secret is
   * rotated (Paddle keeps the old one valid for a while and signs with both).
   */
  private static NotifyChannel paddle(ConfigReader c, Clock clock, OrderNumbers numbers, AmountUnit unit) {
    String one = c.secret("paddle.webhook_secret");
    String several = c.fileContent("paddle.webhook_secrets_file");
    String currency = c.string("paddle.currency");
    if (unset(one, several, currency)) {
      return null;
    }
    String oneKey = keyName(c, "paddle.webhook_secret");
    if (one != null && several != null) {
      throw c.error(oneKey, "set either " + oneKey + " or paddle.webhook_secrets_file, not both");
    }
    if (one == null && several == null) {
      throw c.error("paddle.webhook_secret_file", "missing: set it (or paddle.webhook_secrets_file, one secret a line"
          + " while one is rotated) to the notification destination's secret key (pdl_ntfset_...)");
    }
    String key = one != null ? oneKey : "paddle.webhook_secrets_file";
    List<String> secrets = one != null ? List.of(one)
        : Arrays.stream(several.split("\\R")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    if (secrets.isEmpty()) {
      throw c.error(key, "no secret key (pdl_ntfset_...)");
    }
    require(c, "paddle.currency", currency);
    currencyCode(c, "paddle.currency", currency, "such as USD");
    // 300 s, not the SDKs' 5: PaddleSignature says why; at most Paddle's 3 days of retries.
    Duration tolerance = Duration.ofSeconds(c.number("paddle.tolerance_seconds",
        PaddleSignature.DEFAULT_TOLERANCE.toSeconds(), 1, PaddleSignature.MAX_TOLERANCE.toSeconds()));
    NotifyChannel paddle = new PaddleChannel(secrets, tolerance, currency, clock);
    warnZeroDecimal("paddle.currency", currency, paddle, unit);
    if (numbers == OrderNumbers.AS_IS) {
      warnShared("paddle: no orders.out_trade_no", "Paddle account (each notification destination gets all its"
          + " events)");
    }
    return paddle;
  }

  /** Lemon Squeezy: the webhook's signing secret, the store whose orders are booked, the site's currency. */
  private static NotifyChannel lemonSqueezy(ConfigReader c, OrderNumbers numbers, AmountUnit unit) {
    String secret = c.secret("lemonsqueezy.signing_secret");
    String storeId = c.string("lemonsqueezy.store_id");
    String currency = c.string("lemonsqueezy.currency");
    if (unset(secret, storeId, currency)) {
      return null;
    }
    require(c, "lemonsqueezy.signing_secret_file", secret);
    require(c, "lemonsqueezy.store_id", storeId);
    require(c, "lemonsqueezy.currency", currency);
    if (!storeId.matches("[1-9][0-9]{0,18}")) { // data.attributes.store_id is an integer
      throw c.error("lemonsqueezy.store_id", "'" + storeId + "' is not a store's number (Settings → Stores)");
    }
    currencyCode(c, "lemonsqueezy.currency", currency, "such as USD");
    boolean testMode = testMode(c, "lemonsqueezy", "test-mode orders");
    NotifyChannel lemonSqueezy = new LemonSqueezyChannel(secret, storeId, currency, testMode);
    warnZeroDecimal("lemonsqueezy.currency", currency, lemonSqueezy, unit);
    if (numbers == OrderNumbers.AS_IS) {
      warnShared("lemonsqueezy: no orders.out_trade_no", "Lemon Squeezy store");
    }
    return lemonSqueezy;
  }

  /** Creem's webhook secret (Developers → Webhooks; Test Mode has its own) and the site's currency. */
  private static NotifyChannel creem(ConfigReader c, OrderNumbers numbers, AmountUnit unit) {
    String secret = c.secret("creem.webhook_secret");
    String currency = c.string("creem.currency");
    if (unset(secret, currency)) {
      return null;
    }
    require(c, "creem.webhook_secret_file", secret);
    require(c, "creem.currency", currency);
    currencyCode(c, "creem.currency", currency, "such as USD");
    boolean testMode = testMode(c, "creem", "events not in prod mode (Creem's Test Mode)");
    NotifyChannel creem = new CreemChannel(secret, currency, testMode);
    warnZeroDecimal("creem.currency", currency, creem, unit);
    if (numbers == OrderNumbers.AS_IS) {
      warnShared("creem: no orders.out_trade_no", "Creem store");
    }
    return creem;
  }

  private static PublicKey rsaKey(ConfigReader c, String key, String text, String what) {
    try {
      return PublicKeys.parseRsa(text);
    } catch (IllegalArgumentException e) {
      throw c.error(key, "not a usable " + what + ": " + e.getMessage());
    }
  }

  /** Which of {@code name} / {@code name_file} the value came from, for the message. */
  private static String keyName(ConfigReader c, String name) {
    return c.string(name + "_file") != null ? name + "_file" : name;
  }

  /** {@code value} of {@code key} a three-letter code, or the start stops naming it ({@code example}: "such as USD"). */
  private static void currencyCode(ConfigReader c, String key, String value, String example) {
    if (!value.matches("[A-Za-z]{3}")) {
      throw c.error(key, "'" + value + "' is not a three-letter currency code " + example);
    }
  }

  /** {@code <section>.test_mode}, false by default; true is said at start, for it books {@code what} as test money. */
  private static boolean testMode(ConfigReader c, String section, String what) {
    boolean testMode = c.bool(section + ".test_mode", false);
    if (testMode) {
      LOG.warn(section + ".test_mode is true: " + what + " are booked as test money: never run this on the live"
          + " orders table");
    }
    return testMode;
  }

  private static boolean unset(String... values) {
    return Arrays.stream(values).allMatch(Objects::isNull);
  }

  private static void require(ConfigReader c, String key, String value) {
    if (value == null) {
      throw c.error(key, "missing: the rest of this channel's section is set");
    }
  }
}
