package paynotify.alert;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import paynotify.channel.Money;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.reconcile.Finding;
import paynotify.store.RefusalEpisode;
import paynotify.store.WriteRefusals.Refusing;
import paynotify.store.WriteRefusals;

/**
 * Each thing the owner is told, as one {@link Alert} in their language: what happened, the order, what to do. What
 * came from elsewhere enters only as {@link AlertText#foreign} (each target shows it through its format), an order
 * or trade number only when it looks like one (else a short hash, and /status), and nothing of a request that was
 * refused: its sender was not who it said.
 */
public final class AlertMessages {
  /** An order or trade number shown as it is: a sane length, and of these characters (no dot: a domain is a link). */
  private static final Pattern SHOWN_ID = Pattern.compile("[A-Za-z0-9_:#|-]{1,64}");
  /** An address as notify_log keeps it (IPv4 or IPv6); X-Forwarded-For behind a proxy may hold anything else. */
  private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private final AlertTexts t;

  public AlertMessages(AlertTexts texts) {
    this.t = texts;
  }

  /** A new anomaly, as the status page lists it. */
  public Alert anomaly(String kind, String channel, String orderNo, String tradeNo, Long amountCents, String detail) {
    AlertText title = AlertText.of(t.pick("支付异常：", "paynotify: ") + t.name(kind));
    if (orderNo != null) {
      title = title.then(t.pick(" 订单 ", " order ")).then(id(orderNo));
    }
    if (amountCents != null) {
      title = title.then(" ¥" + Money.format(amountCents));
    }
    AlertText text = AlertText.of(t.pick("渠道：", "channel: ") + channel);
    if (tradeNo != null) {
      text = text.then(t.pick("\n交易号：", "\ntrade: ")).then(id(tradeNo));
    }
    text = text.then("\n").then(AlertText.foreign(withoutOddIds(detail, orderNo, tradeNo)));
    String english = englishAction(kind);
    if (english != null) {
      text = text.then(t.pick("\n处理：", "\nwhat to do: ") + t.action(kind, english));
    }
    return new Alert(kind, title, text);
  }

  /**
   * Notifications of a channel refused for their signature or keys: how many, why, from where, what is most likely
   * wrong, and where the rest is. Not a word of what they carried: anyone can send a notification.
   */
  public Alert signatureBurst(SignatureBurst.Burst b) {
    String title = t.pick("签名验证连续失败：", "signatures failing: ") + b.channel();
    AlertText text = AlertText.of(t.pick(b.count() + " 条通知在 10 分钟内验签失败，没有一条通过（" + b.reason()
            + "）" + (b.again() ? "，上次提醒之后仍在继续" : "") + "。最后一条来自 ",
        b.count() + " notifications refused within 10 minutes, none verified (" + b.reason() + ")"
            + (b.again() ? ", still since the last alert" : "") + ". The last one from "))
        .then(address(b.address()))
        .then(t.pick("。\n", ".\n") + diagnosis(b.channel(), b.reason())
            + t.pick("\n（也可能是有人在伪造通知。）每一条的详情和来源地址在 notify_log 里（状态页 /status）。",
                "\n(Or someone is sending forged notifications.) Each one's detail and address are in notify_log"
                + " (the status page, /status)."));
    return new Alert("signature_burst", AlertText.of(title), text);
  }

  /** An order or trade number as it is, or when it does not look like one a hash of it, and where it is shown. */
  private AlertText id(String value) {
    return SHOWN_ID.matcher(value).matches() ? AlertText.foreign(value)
        : AlertText.of(t.pick(hashed(value) + "（原值见 /status）", hashed(value) + " (see /status)"));
  }

  /** {@code detail} with each number that is not shown as it is replaced by its hash, as in the title. */
  private static String withoutOddIds(String detail, String... ids) {
    String shown = detail == null ? "" : detail;
    for (String id : ids) {
      if (id != null && !id.isEmpty() && !SHOWN_ID.matcher(id).matches()) {
        shown = shown.replace(id, hashed(id));
      }
    }
    return shown;
  }

  private static String hashed(String value) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return "hash " + HexFormat.of().formatHex(digest, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private AlertText address(String address) {
    if (address == null) {
      return AlertText.of(t.pick("未知地址", "an unknown address"));
    }
    return ADDRESS.matcher(address).matches() ? AlertText.foreign(address)
        : AlertText.of(t.pick("一个不是 IP 的地址", "an address that is no IP"));
  }

  /** What {@code reason} (a refusal's code) on {@code channel} most likely means. */
  private String diagnosis(String channel, String reason) {
    if ("WRONG_MERCHANT".equals(reason)) {
      return t.pick("通知是发给另一个商户或应用的：核对配置里的 app_id / mch_id / pid。",
          "The notifications are for another merchant or app: check app_id / mch_id / pid in the configuration.");
    }
    return switch (channel) {
      case "alipay" -> t.pick("多半是把「应用公钥」填在了支付宝公钥的位置：在支付宝开放平台的「接口加签方式」里复制「支付宝公钥」，"
          + "填到 alipay.public_key_file。", "Most likely the application's public key was configured instead of"
          + " Alipay's: copy the Alipay public key (支付宝公钥) from the open platform's signing settings into"
          + " alipay.public_key_file.");
      case "wechat_v3" -> "UNKNOWN_SERIAL".equals(reason)
          ? t.pick("通知用的微信支付公钥或平台证书不在 wechat_v3.platform_keys 里：把 notify_log 详情里的序列号/公钥 ID 对应的"
              + "公钥加进去。", "WeChat Pay signs with a key not in wechat_v3.platform_keys: add the key whose serial or"
              + " public key id the detail in notify_log names.")
          : t.pick("签名与 platform_keys 里的公钥对不上，或 APIv3 密钥不对：核对商户平台上的公钥和 APIv3 密钥。",
              "The signature does not match the key in platform_keys, or the APIv3 key is wrong: compare them"
              + " with the merchant platform's.");
      case "wechat_v2" -> t.pick("API 密钥（wechat_v2.api_key）与商户平台「API安全」里设置的不一致。",
          "The API key (wechat_v2.api_key) is not the one set in the merchant platform's API security page.");
      case "epay" -> t.pick("pid 或密钥与易支付商户后台的不一致（epay.pid、epay.key）。",
          "The pid or key does not match the aggregator's merchant panel (epay.pid, epay.key).");
      case "stripe" -> t.pick("webhook 签名密钥（whsec_…）不是这个 endpoint 的：在 Stripe 后台的 webhook 页面复制。",
          "The webhook signing secret (whsec_...) is not this endpoint's: copy it from the Stripe Dashboard's"
          + " webhook page.");
      case "xunhupay" -> t.pick("APPSECRET 与虎皮椒后台这个支付渠道的不一致（xunhupay.appsecret_file）；微信和支付宝两个渠道的"
          + " APPID/APPSECRET 各不相同。", "The APPSECRET is not this payment channel's in 虎皮椒's console"
          + " (xunhupay.appsecret_file); its WeChat and Alipay channels each have their own APPID and APPSECRET.");
      case "epusdt" -> t.pick("API 令牌与 epusdt 的 .env 里的 api_auth_token（BEpusdt：对接令牌）不一致（epusdt.token_file）。",
          "The token is not epusdt's api_auth_token in its .env (BEpusdt: 对接令牌) (epusdt.token_file).");
      case "vmq" -> t.pick("通讯密钥与 V免签 后台系统设置里的不一致（vmq.key_file）。",
          "The key is not the communication key (通讯密钥) of V免签's settings (vmq.key_file).");
      case "tokenpay" -> t.pick("ApiToken 与 TokenPay 的 appsettings.json 里的不一致（tokenpay.key_file）。",
          "The key is not the ApiToken of TokenPay's appsettings.json (tokenpay.key_file).");
      case "lemonsqueezy" -> t.pick("签名密钥与 Lemon Squeezy 后台 Settings → Webhooks 里这个 webhook 的 Signing secret 不一致"
          + "（lemonsqueezy.signing_secret_file）。", "The signing secret is not this webhook's Signing secret in Lemon"
          + " Squeezy's Settings → Webhooks (lemonsqueezy.signing_secret_file).");
      case "creem" -> t.pick("webhook 密钥与 Creem 后台 Developers → Webhooks 里这个 endpoint 的不一致（creem.webhook_secret_file）；"
          + "测试模式（Test Mode）的密钥另是一个。", "The webhook secret is not this endpoint's in Creem's dashboard, Developers"
          + " → Webhooks (creem.webhook_secret_file); Test Mode has a secret of its own.");
      default -> t.pick("核对这个渠道配置的密钥。", "Check the keys configured for this channel.");
    };
  }

  /** The site has not taken events for a while (its endpoint is down or refuses). */
  public Alert forwardPending(long minutes) {
    return new Alert("forward_pending", t.pick("网站 " + minutes + " 分钟没有接收事件", "the site has not taken events for "
        + minutes + " min"), t.pick("付款已记账，但网站的接收地址（forward.url）一直没有成功应答，订单可能没有发货。检查网站是否正常；"
        + "恢复后事件会自动补发。", "Payments are booked, but the site's endpoint (forward.url) has not answered"
        + " 2xx, so orders may not be delivered. Check the site; events are sent again once it answers."));
  }

  /** A day's close: its summary, or why it did not close. */
  public Alert dailyClose(String channel, LocalDate day, String state, String detail) {
    boolean done = "done".equals(state);
    String title = done ? t.pick("对账 ", "daily close ") + channel + " " + day
        : t.pick("没有拿到账单：", "no bill fetched: ") + channel + " " + day;
    AlertText text = AlertText.foreign(detail); // a platform's or the bill's words among ours
    if (!done) {
      text = text.then(t.pick("\n原因解决后手动运行：scripts/paynotify reconcile --channel " + channel + " --fetch --date "
          + day + " --record", "\nOnce the cause is fixed, run: scripts/paynotify reconcile --channel " + channel
          + " --fetch --date " + day + " --record"));
    }
    return new Alert(done ? "daily_close" : "daily_close_failed", AlertText.of(title), text);
  }

  /** The database has not answered for a while: notifications are answered 503, the platforms retry. */
  public Alert databaseDown(long minutes, String error) {
    return new Alert("database_down", AlertText.of(t.pick("数据库 " + minutes + " 分钟无法连接",
        "the database has not answered for " + minutes + " min")), AlertText.of(t.pick(
            "通知都回了 503，平台会重试，但重试次数有限（支付宝约 25 小时）。尽快恢复 MySQL/MariaDB。\n",
            "Notifications are answered 503 and the platforms retry, for a limited time (Alipay about 25 h). Bring"
            + " MySQL/MariaDB back.\n")).then(AlertText.foreign(error)));
  }

  public Alert databaseBack() {
    return new Alert("database_down", t.pick("数据库已恢复", "the database answers again"),
        t.pick("通知又可以记账了。", "Notifications are booked again."));
  }

  /**
   * The database refuses writes ({@link WriteRefusals}, once per episode): why, since when, how many notifications
   * were answered failure so far, what to do, and which configured platforms never deliver a refused one again.
   */
  Alert databaseRefusesWrites(Refusing r, List<Platform> withoutRetries) {
    String since = beijing(r.since());
    String byEndpoint = r.refusedByEndpoint().entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(t.pick("、", ", ")));
    String lost = withoutRetries.isEmpty()
        ? t.pick("配置的平台都会重试：写入恢复后不会丢失。", "Every configured platform retries: nothing is lost once writes work"
            + " again.")
        : t.pick("会重试的平台会再次发送；" + labels(withoutRetries) + " 不会重发：恢复后核对这段时间里它们的订单。",
            "Platforms that retry will deliver them again; " + labels(withoutRetries) + " never do: check their"
            + " orders of this time once it is over.");
    return new Alert("database_refuses_writes", t.pick("数据库拒绝写入：", "Database refuses writes: ") + reason(r.reason()),
        t.pick("从 " + since + "（北京时间）起记账失败，已有 " + r.refused() + " 条通知回了失败（" + byEndpoint + "），平台收到的是失败应答。\n处理："
            + toDoZh(r.reason()) + "\n",
            "Since " + since + " (Beijing time) bookings fail: " + r.refused() + " notifications answered failure so far ("
            + byEndpoint + ").\nWhat to do: " + WriteRefusals.whatToDo(r.reason()) + ".\n") + lost);
  }

  /** The episode is over: how many were refused in which window, and whose orders of it to check. */
  Alert databaseWritesAgain(RefusalEpisode e, List<Platform> withoutRetries) {
    String from = beijing(e.since());
    String to = beijing(e.until());
    String check = withoutRetries.isEmpty()
        ? t.pick("配置的平台都会重试，不会丢失。", "every configured platform retries: nothing is lost.")
        : t.pick("请核对这段时间里 " + labels(withoutRetries) + " 的订单。", "check " + labels(withoutRetries)
            + " orders of that window.");
    return new Alert("database_writes_again", t.pick("数据库恢复写入", "Database writes again"),
        t.pick(from + " 至 " + to + "（北京时间）之间有 " + e.refused() + " 条通知被拒绝（" + reason(e.reason())
                + "）；会重试的平台会再次发送：" + check,
            e.refused() + " notifications were refused between " + from + " and " + to + " (Beijing time, "
                + e.reason() + "); platforms that retry will deliver them again: " + check));
  }

  private static String beijing(Instant at) {
    return LocalDateTime.ofInstant(at, PlatformTime.BEIJING).format(SECONDS);
  }

  private String labels(List<Platform> platforms) {
    List<String> names = platforms.stream().map(Platform::label).toList();
    return names.size() == 1 ? names.get(0) : String.join(", ", names.subList(0, names.size() - 1))
        + t.pick(" 和 ", " and ") + names.get(names.size() - 1);
  }

  /** A refusal's reason ({@link paynotify.store.DbErrors#refusal}) in the owner's language; its code as it is. */
  private String reason(String reason) {
    if (!t.chinese()) {
      return reason;
    }
    String code = reason.substring(reason.indexOf('('));
    return (reason.startsWith("disk full") ? "磁盘已满 " : reason.startsWith("read-only") ? "只读 "
        : reason.startsWith("too many connections") ? "连接数已满 " : "内存不足 ") + code;
  }

  private static String toDoZh(String reason) {
    if (reason.startsWith("disk full")) {
      return "清理数据库服务器的磁盘空间（df -h：binlog、旧备份、general log）。";
    }
    if (reason.equals("read-only (1836)")) {
      return "MariaDB 以 innodb_read_only 运行：去掉这个选项后重启 MariaDB。";
    }
    if (reason.equals("read-only (1792)")) {
      return "在数据库上执行 SET GLOBAL transaction_read_only=OFF（MariaDB 11.1 之前为 tx_read_only），并从其配置中删去。";
    }
    if (reason.startsWith("read-only")) {
      return "若 SHOW REPLICA STATUS 为空（这台是主库）：执行 SET GLOBAL read_only=OFF；否则把 database.host 指向主库。";
    }
    if (reason.startsWith("too many connections")) {
      return "调大数据库的 max_connections，或查出占着连接的程序（SHOW PROCESSLIST）。";
    }
    return "释放数据库服务器的内存（或调小 innodb_buffer_pool_size），仍不恢复就重启数据库。";
  }

  /** A payment booked (alerts.payments), as the peers tell every order. */
  public Alert payment(String channel, String orderNo, long amountCents) {
    return new Alert("payment", AlertText.of(t.pick("收款 ¥", "paid ¥") + Money.format(amountCents)
        + t.pick(" 订单 ", " order ")).then(id(orderNo)), AlertText.of(t.pick("渠道：", "channel: ") + channel));
  }

  /** The public notify address did not reach this service: the platforms' notifications do not either. */
  public Alert probeFailed(String why) {
    return new Alert("probe_failed", AlertText.of(t.pick("通知地址探测失败", "the notify address does not reach paynotify")),
        AlertText.foreign(why).then(t.pick("\n平台的通知多半也到不了：检查 DNS、证书、CDN/WAF 和 nginx 的 location。",
            "\nThe platforms' notifications most likely do not either: check DNS, the certificate, a CDN or WAF,"
            + " nginx's location."))); // why: what answered in paynotify's place, a page of anyone's
  }

  public Alert probeBack() {
    return new Alert("probe_failed", t.pick("通知地址探测恢复正常", "the notify address reaches paynotify again"),
        t.pick("平台的通知可以到达了。", "The platforms' notifications can arrive again."));
  }

  /**
   * A certificate about to break: configured (its key), or the newest WeChat Pay platform certificate the service
   * downloaded (platform_certificates).
   */
  public record Expiring(String where, String serial, Instant notAfter) {}

  /**
   * Certificates expiring within 30 days, or expired, found in one look: one message (a kind folds into one), each
   * with when, and where its successor is found and what to change.
   */
  public Alert certificatesExpiring(List<Expiring> certificates, Instant now) {
    String title;
    if (certificates.size() > 1) {
      title = t.pick(certificates.size() + " 张证书即将过期或已过期", certificates.size() + " certificates expiring or expired");
    } else {
      Expiring one = certificates.get(0);
      long days = Duration.between(now, one.notAfter()).toDays();
      title = !one.notAfter().isAfter(now) ? t.pick("证书已过期：", "certificate expired: ") + one.where()
          : t.pick("证书 " + days + " 天后过期：", "certificate expires in " + days + " days: ") + one.where();
    }
    StringBuilder text = new StringBuilder();
    for (Expiring c : certificates) {
      boolean expired = !c.notAfter().isAfter(now);
      text.append(text.length() == 0 ? "" : "\n\n").append(certificates.size() > 1 ? c.where() + t.pick("：", ": ") : "")
          .append(t.pick("证书（序列号 " + c.serial() + "）" + (expired ? "已于 " : "将于 ") + beijing(c.notAfter())
              + "（北京时间）过期。\n处理：", "The certificate (serial " + c.serial() + ") " + (expired ? "expired on "
              : "expires on ") + beijing(c.notAfter()) + " (Beijing time).\nWhat to do: ")).append(renewal(c.where()));
    }
    return new Alert("certificate_expiring", title, text.toString());
  }

  /** Where the successor of the certificate {@code where} names is found, and what to change. */
  private String renewal(String where) {
    if (where.startsWith("wechat_v3.merchant_certificate")) {
      return t.pick("在商户平台 → 账户中心 → API安全 → 申请API证书（更换证书），用证书工具生成新的 apiclient_key.pem 和"
          + " apiclient_cert.pem；替换 wechat_v3.merchant_private_key_file 和 merchant_certificate_file，把"
          + " merchant_serial_no 改成新证书的序列号，然后重启。过期后查单、关单和下载账单都会失败。", "Renew it at 商户平台 →"
          + " 账户中心 → API安全 → 申请API证书 (the certificate tool writes a new apiclient_key.pem and apiclient_cert.pem);"
          + " replace wechat_v3.merchant_private_key_file and merchant_certificate_file, set merchant_serial_no to the"
          + " new certificate's serial, restart. Once it has expired, queries, closes and bill downloads fail.");
    }
    if (where.startsWith("wechat_v3.platform_keys")) {
      return t.pick("把当前的平台证书加进 wechat_v3.platform_keys，或改用不会过期的微信支付公钥：商户平台 → 账户中心 → API安全 →"
          + " 微信支付公钥；然后重启。用过期证书签名的通知都会验签失败。", "List the current platform certificate in"
          + " wechat_v3.platform_keys, or the WeChat Pay public key, which does not expire: 商户平台 → 账户中心 → API安全 →"
          + " 微信支付公钥; restart. Notifications signed with an expired one fail their signature.");
    }
    if (where.startsWith("platform_certificates")) {
      return t.pick("这是服务自己下载的平台证书中最新的一张，微信支付没有签发新的：要么下载失败（服务日志里的 /v3/certificates），"
          + "要么这个商户已被切换到微信支付公钥。把微信支付公钥加进 wechat_v3.platform_keys（商户平台 → 账户中心 → API安全 →"
          + " 微信支付公钥），然后重启。", "It is the newest platform certificate the service downloaded, and WeChat Pay has"
          + " issued none after it: the download fails (the service's log, /v3/certificates), or the merchant was moved"
          + " to the WeChat Pay public key: list it in wechat_v3.platform_keys (商户平台 → 账户中心 → API安全 → 微信支付公钥),"
          + " restart.");
    }
    if (where.equals("alipay.app_cert_file")) {
      return t.pick("更新应用公钥证书：支付宝开放平台 → 开发设置 → 接口加签方式 → 更新证书（用支付宝开放平台密钥工具生成新的 CSR），"
          + "下载新的 appCertPublicKey_<APPID>.crt 替换 alipay.app_cert_file（新的应用私钥替换 alipay.app_private_key_file），"
          + "然后重启。过期后查单和下载账单都会失败。", "Renew the application's certificate: 支付宝开放平台 → 开发设置 →"
          + " 接口加签方式 → 更新证书 (a new CSR from 支付宝开放平台密钥工具); replace alipay.app_cert_file with the new"
          + " appCertPublicKey_<APPID>.crt (and alipay.app_private_key_file with its new private key), restart. Once"
          + " it has expired, queries and bill downloads fail.");
    }
    if (where.equals("alipay.alipay_cert_file") || where.equals("alipay.alipay_root_cert_file")) {
      String file = where.equals("alipay.alipay_cert_file") ? "alipayCertPublicKey_RSA2.crt" : "alipayRootCert.crt";
      return t.pick("在支付宝开放平台 → 开发设置 → 接口加签方式 下载当前的 " + file + "，替换 " + where + "，然后重启。",
          "Download the current " + file + " at 支付宝开放平台 → 开发设置 → 接口加签方式, replace " + where + ", restart.");
    }
    return t.pick("替换 " + where + " 指向的证书，然后重启。", "Replace the certificate " + where + " names, restart.");
  }

  /**
   * Alipay re-issued its certificate: the service fetched the new one (it chains to the configured root) and uses
   * it, but alipay.alipay_cert_file holds the old one, which a restart goes back to.
   *
   * @param certSn the new certificate's alipay_cert_sn, as the service kept it after checking it
   */
  public Alert alipayCertificateReissued(String certSn, Instant notAfter) {
    return new Alert("alipay_cert_reissued", t.pick("支付宝公钥证书已更换", "Alipay re-issued its certificate"),
        t.pick("支付宝签发了新的支付宝公钥证书（alipay_cert_sn " + certSn + "，有效期至 " + beijing(notAfter) + "）。服务已下载"
            + "并核对了它（由配置的根证书签发），正在使用；但 alipay.alipay_cert_file 还是旧的，重启后会用回旧证书。\n处理：在支付宝"
            + "开放平台 → 开发设置 → 接口加签方式 下载新的 alipayCertPublicKey_RSA2.crt，替换 alipay.alipay_cert_file。",
            "Alipay issued a new certificate of its own (alipay_cert_sn " + certSn + ", valid until "
            + beijing(notAfter) + " Beijing time). The service fetched it, checked that the configured root signs it,"
            + " and uses it; but alipay.alipay_cert_file holds the old one, which a restart goes back to.\nWhat to do:"
            + " download the new alipayCertPublicKey_RSA2.crt at 支付宝开放平台 → 开发设置 → 接口加签方式 and replace"
            + " alipay.alipay_cert_file."));
  }

  /**
   * Notifications refused for naming a WeChat Pay public key (PUB_KEY_ID_...) while wechat_v3.platform_keys lists
   * none: WeChat moved the merchant over, or someone sends forged ones (one unsigned request is enough to be told).
   * The id such a request named is unverified: the owner takes the id and the key from the merchant console only.
   */
  public Alert wechatPublicKeySeen(long refused) {
    return new Alert("wechat_public_key", t.pick("微信支付已改用微信支付公钥签名", "WeChat Pay signs with its public key"),
        t.pick(refused + " 条微信支付 v3 通知用微信支付公钥（PUB_KEY_ID_…）签名而被拒绝：wechat_v3.platform_keys 里没有微信支付"
            + "公钥。微信会把商户从平台证书迁移到微信支付公钥（不可撤回），之后的通知都会验签失败，付了款的订单收不到通知；也可能是"
            + "伪造的通知。\n处理：在商户平台 → 账户中心 → API安全 → 微信支付公钥 查看公钥ID、下载 pub_key.pem，把两者加进"
            + " wechat_v3.platform_keys（id + key_file），然后重启。公钥ID 只从这个页面抄：被拒绝的请求里带的 ID 未经验证，"
            + "不要照它配置。",
            refused + " WeChat Pay v3 notifications signed with the WeChat Pay public key (PUB_KEY_ID_...) were refused:"
            + " wechat_v3.platform_keys lists none. WeChat moves merchants from platform certificates to the public key"
            + " (irreversibly); every notification after it fails its signature, paid orders are never told. Or someone"
            + " is sending forged notifications.\nWhat to do: at 商户平台 → 账户中心 → API安全 → 微信支付公钥, copy the"
            + " public key id (公钥ID) and download pub_key.pem; add both to wechat_v3.platform_keys (id + key_file),"
            + " restart. Take the id from that page only: the id a refused request carried is unverified, do not"
            + " configure it."));
  }

  /** What {@code paynotify alerts test} sends. */
  Alert test() {
    return new Alert("test", t.pick("paynotify 测试消息", "paynotify test message"),
        t.pick("收到这条消息说明提醒已配置好。", "If you read this, alerts reach you."));
  }

  /** The English "what to do" of an anomaly kind this version knows, or of a reconcile finding; else null. */
  private static String englishAction(String kind) {
    String action = AlertTexts.englishAction(kind);
    if (action != null) {
      return action;
    }
    for (Finding.Kind f : Finding.Kind.values()) {
      if (f.code().equals(kind)) {
        return f.hint;
      }
    }
    return null;
  }
}
