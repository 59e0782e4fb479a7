package paynotify.config;

import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import paynotify.alert.AlertClients;
import paynotify.alert.AlertTarget;
import paynotify.alert.AlertTexts;
import paynotify.alert.Alerts;
import paynotify.alert.BarkTarget;
import paynotify.alert.DingtalkTarget;
import paynotify.alert.FeishuTarget;
import paynotify.alert.MailSettings;
import paynotify.alert.MailTarget;
import paynotify.alert.SelfProbe;
import paynotify.alert.ServerChanTarget;
import paynotify.alert.TelegramTarget;
import paynotify.alert.WecomTarget;
import paynotify.alert.watch.AlertWatch;

/**
 * The {@code alerts:} section: where the owner is told (each target optional; its secrets from files or the
 * environment, never this file's text alone), in which language, how often at most, and when not at all.
 *
 * @param targets           each configured target, built on the service's (or the command's) clients
 * @param telegramProxy     Telegram's requests through this (unreachable from mainland China without one); null: direct
 * @param watched           what is watched besides anomalies and daily closes (forwarding: set by the service), the
 *                          configured certificates among it (config/ConfiguredCertificates)
 */
public record AlertsConfig(List<Function<AlertClients, AlertTarget>> targets, ProxyOptions telegramProxy,
    AlertTexts texts, Alerts.Settings settings, AlertWatch.Watched watched) {
  private static final DateTimeFormatter HOUR_MINUTE = DateTimeFormatter.ofPattern("H:mm");
  private static final Duration MAIL_TIMEOUT = Duration.ofSeconds(20);

  /** Whether any target is configured: without one nothing is watched or sent. */
  public boolean on() {
    return !targets.isEmpty();
  }

  /** The targets on {@code clients}; one that refuses its settings (a token of the wrong shape) stops the start. */
  public List<AlertTarget> build(AlertClients clients) {
    try {
      return targets.stream().map(t -> t.apply(clients)).toList();
    } catch (IllegalArgumentException e) {
      throw new ConfigException("alerts: " + e.getMessage());
    }
  }

  static AlertsConfig read(ConfigReader c) {
    String language = c.string("alerts.language", "zh");
    if (!language.equals("zh") && !language.equals("en")) {
      throw c.error("alerts.language", "'" + language + "' is not zh or en");
    }
    Duration minInterval = Duration.ofSeconds(c.number("alerts.min_interval_seconds", 600, 10, 86_400));
    LocalTime[] quiet = quietHours(c);
    Duration forwardPending = Duration.ofMinutes(c.number("alerts.forward_pending_minutes", 30, 1, 24 * 60));
    Duration databaseDown = Duration.ofMinutes(c.number("alerts.database_down_minutes", 5, 1, 24 * 60));
    String probe = c.string("alerts.probe_url");
    URI probeUrl = probe == null ? null : RecoveryConfig.checkedUrl(c, "alerts.probe_url", probe);
    if (probeUrl != null && !probeUrl.getPath().endsWith(SelfProbe.PATH)) {
      throw c.error("alerts.probe_url", "'" + probe + "' must end with " + SelfProbe.PATH + ", the path the service"
          + " answers (e.g. https://shop.example.com" + SelfProbe.PATH + ")");
    }
    boolean payments = c.bool("alerts.payments", false);
    List<Function<AlertClients, AlertTarget>> targets = new ArrayList<>();
    Clock clock = Clock.systemUTC();

    String wecom = secret(c, "alerts.wecom.webhook_url");
    if (wecom != null) {
      URI url = secretUrl(c, "alerts.wecom.webhook_url", wecom);
      targets.add(clients -> new WecomTarget(clients.direct(), url));
    }
    String dingtalk = secret(c, "alerts.dingtalk.webhook_url");
    String dingtalkSecret = secret(c, "alerts.dingtalk.secret");
    if (dingtalk != null) {
      URI url = secretUrl(c, "alerts.dingtalk.webhook_url", dingtalk);
      targets.add(clients -> new DingtalkTarget(clients.direct(), url, dingtalkSecret, clock));
    }
    String feishu = secret(c, "alerts.feishu.webhook_url");
    String feishuSecret = secret(c, "alerts.feishu.secret");
    if (feishu != null) {
      URI url = secretUrl(c, "alerts.feishu.webhook_url", feishu);
      targets.add(clients -> new FeishuTarget(clients.direct(), url, feishuSecret, clock));
    }
    String token = secret(c, "alerts.telegram.bot_token");
    String chatId = c.string("alerts.telegram.chat_id");
    URI telegramApi = RecoveryConfig.url(c, "alerts.telegram.api_base", "https://api.telegram.org");
    ProxyOptions proxy = proxy(c);
    if (token != null) {
      if (chatId == null) {
        throw c.error("alerts.telegram.chat_id", "missing: the chat the bot writes to (docs/alerts.md, Telegram)");
      }
      targets.add(clients -> new TelegramTarget(clients.telegram(), telegramApi, token, chatId));
    }
    String sendKey = secret(c, "alerts.serverchan.sendkey");
    URI serverChanApi = RecoveryConfig.url(c, "alerts.serverchan.api_base", "https://sctapi.ftqq.com");
    if (sendKey != null) {
      targets.add(clients -> new ServerChanTarget(clients.direct(), serverChanApi, sendKey));
    }
    String bark = secret(c, "alerts.bark.url");
    String level = c.string("alerts.bark.level", "timeSensitive");
    String group = c.string("alerts.bark.group", "paynotify");
    if (bark != null) {
      URI url = secretUrl(c, "alerts.bark.url", bark);
      String[] path = url.getPath().split("/");
      if (path.length < 2 || path[1].isEmpty()) {
        throw c.error("alerts.bark.url", "has no device key: it is the URL the Bark app shows, e.g."
            + " https://api.day.app/<device key>");
      }
      URI server = URI.create(url.getScheme() + "://" + url.getRawAuthority());
      targets.add(clients -> new BarkTarget(clients.direct(), server, path[1], group, level));
    }
    MailSettings mail = mail(c);
    if (mail != null) {
      targets.add(clients -> new MailTarget(clients.vertx(), mail));
    }
    return new AlertsConfig(List.copyOf(targets), proxy, new AlertTexts(language),
        new Alerts.Settings(minInterval, quiet[0], quiet[1]),
        new AlertWatch.Watched(forwardPending, databaseDown, probeUrl, payments, ConfiguredCertificates.read(c)));
  }

  /** A secret given inline (the environment) or in a file; an empty file is a mistake, not "none". */
  private static String secret(ConfigReader c, String key) {
    String value = c.inlineOrFile(key);
    if (value != null && value.isEmpty()) {
      throw c.error(key + "_file", "the file is empty");
    }
    return value;
  }

  /** A URL that holds a secret (a robot's key): checked as any other, but never echoed in the message. */
  private static URI secretUrl(ConfigReader c, String key, String text) {
    try {
      return RecoveryConfig.checkedUrl(c, key, text);
    } catch (ConfigException e) {
      throw c.error(key, "is not an https URL (plain http only on 127.0.0.1, for a local relay); not shown here:"
          + " it holds the key");
    }
  }

  /** "23:00-08:00" (Beijing time), or none. */
  private static LocalTime[] quietHours(ConfigReader c) {
    String text = c.optional("alerts.quiet_hours", null);
    if (text == null) {
      return new LocalTime[2];
    }
    String[] ends = text.split("-");
    try {
      if (ends.length == 2) {
        LocalTime from = LocalTime.parse(ends[0].trim(), HOUR_MINUTE);
        LocalTime to = LocalTime.parse(ends[1].trim(), HOUR_MINUTE);
        if (!from.equals(to)) {
          return new LocalTime[] {from, to};
        }
      }
    } catch (DateTimeParseException e) {
      // said below
    }
    throw c.error("alerts.quiet_hours", "'" + text + "' is not two different times, e.g. 23:00-08:00 (Beijing time)");
  }

  /** alerts.telegram.proxy: http://host:port or socks5://host:port; null when not set. */
  private static ProxyOptions proxy(ConfigReader c) {
    String text = c.string("alerts.telegram.proxy");
    if (text == null) {
      return null;
    }
    try {
      URI proxy = new URI(text);
      ProxyType type = switch (String.valueOf(proxy.getScheme())) {
        case "http" -> ProxyType.HTTP;
        case "socks5" -> ProxyType.SOCKS5;
        default -> null;
      };
      if (type != null && proxy.getHost() != null && proxy.getPort() > 0) {
        return new ProxyOptions().setType(type).setHost(proxy.getHost()).setPort(proxy.getPort());
      }
    } catch (URISyntaxException e) {
      // said below
    }
    throw c.error("alerts.telegram.proxy", "'" + text + "' is not http://host:port or socks5://host:port");
  }

  /** alerts.smtp; null when no host is set. */
  private static MailSettings mail(ConfigReader c) {
    String host = c.string("alerts.smtp.host");
    int port = c.integer("alerts.smtp.port", 587, 1, 65535);
    String from = c.string("alerts.smtp.from");
    List<String> to = c.list("alerts.smtp.to");
    String username = c.string("alerts.smtp.username");
    String password = secret(c, "alerts.smtp.password");
    boolean starttls = c.bool("alerts.smtp.starttls", true);
    if (host == null) {
      return null;
    }
    boolean loopback = host.equals("127.0.0.1") || host.equals("localhost");
    if (password != null && !starttls && port != 465 && !loopback) {
      throw c.error("alerts.smtp.starttls", "false, with a password and port " + port + ": the password would cross"
          + " the network in clear; use starttls: true (587) or port 465");
    }
    if (from == null || to == null || to.isEmpty()) {
      throw c.error(from == null ? "alerts.smtp.from" : "alerts.smtp.to", "missing: mail needs a sender and at least"
          + " one recipient");
    }
    return new MailSettings(host, port, from, List.copyOf(to), username, password, starttls, MAIL_TIMEOUT);
  }
}
