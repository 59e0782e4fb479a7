package paynotify.alert;

import java.time.LocalDate;
import paynotify.channel.Money;
import paynotify.reconcile.Finding;

/** Each thing the owner is told, as one {@link Alert} in their language: what happened, the order, what to do. */
final class AlertMessages {
  private final AlertTexts t;

  AlertMessages(AlertTexts texts) {
    this.t = texts;
  }

  /** A new anomaly, as the status page lists it. */
  Alert anomaly(String kind, String channel, String orderNo, String tradeNo, Long amountCents, String detail) {
    String amount = amountCents == null ? "" : " ¥" + Money.format(amountCents);
    String order = orderNo == null ? "" : t.pick(" 订单 ", " order ") + orderNo;
    String title = t.pick("支付异常：", "paynotify: ") + t.name(kind) + order + amount;
    String english = englishAction(kind);
    String text = t.pick("渠道：", "channel: ") + channel
        + (tradeNo == null ? "" : t.pick("\n交易号：", "\ntrade: ") + tradeNo)
        + "\n" + detail
        + (english == null ? "" : t.pick("\n处理：", "\nwhat to do: ") + t.action(kind, english));
    return new Alert(kind, title, text);
  }

  /** Every notification of a channel refused for its signature or keys: what is most likely wrong. */
  Alert signatureBurst(SignatureBurst.Burst b) {
    String title = t.pick("签名验证连续失败：", "signatures failing: ") + b.channel();
    String text = t.pick(b.count() + " 条通知在 10 分钟内验签失败，没有一条通过。",
        b.count() + " notifications refused within 10 minutes, none verified.")
        + "\n" + diagnosis(b.channel(), b.detail())
        + t.pick("\n（也可能是有人在伪造通知：看 notify_log 里的来源地址。）最后一条：",
            "\n(Or someone is sending forged notifications: see their addresses in notify_log.) The last one: ")
        + b.detail();
    return new Alert("signature_burst", title, text);
  }

  private String diagnosis(String channel, String detail) {
    if (detail.startsWith("WRONG_MERCHANT")) {
      return t.pick("通知是发给另一个商户或应用的：核对配置里的 app_id / mch_id / pid。",
          "The notifications are for another merchant or app: check app_id / mch_id / pid in the configuration.");
    }
    return switch (channel) {
      case "alipay" -> t.pick("多半是把「应用公钥」填在了支付宝公钥的位置：在支付宝开放平台的「接口加签方式」里复制「支付宝公钥」，"
          + "填到 alipay.public_key_file。", "Most likely the application's public key was configured instead of"
          + " Alipay's: copy the Alipay public key (支付宝公钥) from the open platform's signing settings into"
          + " alipay.public_key_file.");
      case "wechat_v3" -> detail.startsWith("UNKNOWN_SERIAL")
          ? t.pick("通知用的微信支付公钥或平台证书不在 wechat_v3.platform_keys 里：把详情里的序列号/公钥 ID 对应的公钥加进去。",
              "WeChat Pay signs with a key not in wechat_v3.platform_keys: add the key whose serial or public key"
              + " id the detail names.")
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
      default -> t.pick("核对这个渠道配置的密钥。", "Check the keys configured for this channel.");
    };
  }

  /** The site has not taken events for a while (its endpoint is down or refuses). */
  Alert forwardPending(long minutes) {
    return new Alert("forward_pending", t.pick("网站 " + minutes + " 分钟没有接收事件", "the site has not taken events for "
        + minutes + " min"), t.pick("付款已记账，但网站的接收地址（forward.url）一直没有成功应答，订单可能没有发货。检查网站是否正常；"
        + "恢复后事件会自动补发。", "Payments are booked, but the site's endpoint (forward.url) has not answered"
        + " 2xx, so orders may not be delivered. Check the site; events are sent again once it answers."));
  }

  /** A day's close: its summary, or why it did not close. */
  Alert dailyClose(String channel, LocalDate day, String state, String detail) {
    boolean done = "done".equals(state);
    String title = done ? t.pick("对账 ", "daily close ") + channel + " " + day
        : t.pick("没有拿到账单：", "no bill fetched: ") + channel + " " + day;
    String text = done ? detail : detail + t.pick("\n原因解决后手动运行：scripts/paynotify reconcile --channel " + channel
        + " --fetch --date " + day + " --record", "\nOnce the cause is fixed, run: scripts/paynotify reconcile --channel "
        + channel + " --fetch --date " + day + " --record");
    return new Alert(done ? "daily_close" : "daily_close_failed", title, text);
  }

  /** The database has not answered for a while: notifications are answered 503, the platforms retry. */
  Alert databaseDown(long minutes, String error) {
    return new Alert("database_down", t.pick("数据库 " + minutes + " 分钟无法连接", "the database has not answered for "
        + minutes + " min"), t.pick("通知都回了 503，平台会重试，但重试次数有限（支付宝约 25 小时）。尽快恢复 MySQL/MariaDB。\n",
        "Notifications are answered 503 and the platforms retry, for a limited time (Alipay about 25 h). Bring"
        + " MySQL/MariaDB back.\n") + error);
  }

  Alert databaseBack() {
    return new Alert("database_down", t.pick("数据库已恢复", "the database answers again"),
        t.pick("通知又可以记账了。", "Notifications are booked again."));
  }

  /** A payment booked (alerts.payments), as the peers tell every order. */
  Alert payment(String channel, String orderNo, long amountCents) {
    return new Alert("payment", t.pick("收款 ¥", "paid ¥") + Money.format(amountCents) + t.pick(" 订单 ", " order ")
        + orderNo, t.pick("渠道：", "channel: ") + channel);
  }

  /** The public notify address did not reach this service: the platforms' notifications do not either. */
  Alert probeFailed(String why) {
    return new Alert("probe_failed", t.pick("通知地址探测失败", "the notify address does not reach paynotify"),
        why + t.pick("\n平台的通知多半也到不了：检查 DNS、证书、CDN/WAF 和 nginx 的 location。",
            "\nThe platforms' notifications most likely do not either: check DNS, the certificate, a CDN or WAF,"
            + " nginx's location."));
  }

  Alert probeBack() {
    return new Alert("probe_failed", t.pick("通知地址探测恢复正常", "the notify address reaches paynotify again"),
        t.pick("平台的通知可以到达了。", "The platforms' notifications can arrive again."));
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
