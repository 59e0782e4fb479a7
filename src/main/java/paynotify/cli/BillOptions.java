package paynotify.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import paynotify.channel.Platform;
import paynotify.config.BillsConfig;
import paynotify.config.ConfigException;
import paynotify.reconcile.Bill;
import paynotify.reconcile.daily.DayClose;
import picocli.CommandLine.Option;

/** Which platform bill a command reads: {@code --channel}, {@code --bill}, {@code --date}. */
final class BillOptions {
  @Option(names = "--channel", required = true, description = "alipay or wechat")
  String channel;

  @Option(names = "--bill", converter = CallerPath.class, description = "Alipay: the .csv.zip as downloaded; WeChat: the ALL .csv")
  Path file;

  @Option(names = "--date", description = "the bill's day (yyyy-MM-dd): with --fetch, the day fetched (default"
      + " yesterday, Beijing time); with a WeChat --bill, its date when the file name lacks it")
  LocalDate date;

  /** The --bill file's bill (required here), read as --channel's. */
  Bill bill() {
    if (file == null) {
      throw new ConfigException("--bill: missing: the platform's bill file");
    }
    return DayClose.bill(platform(), file, date);
  }

  /** --channel's platform. */
  Platform platform() {
    return switch (channel) {
      case "alipay" -> Platform.ALIPAY;
      case "wechat" -> Platform.WECHAT;
      default -> throw new ConfigException("--channel: '" + channel + "' is not " + BillsConfig.BILL_PLATFORMS
          + " (the bills paynotify reads; xunhupay, epusdt and vmq publish none)");
    };
  }
}
