package paynotify.cli.options;

import java.nio.file.Path;
import java.time.LocalDate;
import paynotify.channel.Platform;
import paynotify.config.BillsConfig;
import paynotify.config.ConfigException;
import paynotify.reconcile.Bill;
import paynotify.reconcile.daily.DayClose;
import picocli.CommandLine.Option;

/** Which platform bill a command reads: {@code --channel}, {@code --bill}, {@code --date}. */
public final class BillOptions {
  @Option(names = "--channel", required = true, description = "alipay or wechat")
  public String channel;

  @Option(names = "--bill", converter = CallerPath.class, description = "Alipay: the .csv.zip as downloaded; WeChat: the ALL .csv")
  public Path file;

  @Option(names = "--date", description = "the bill's day (yyyy-MM-dd): with --fetch, the day fetched (default"
      + " yesterday, Beijing time); with a WeChat --bill, its date when the file name lacks it")
  public LocalDate date;

  /** The --bill file's bill (required here), read as --channel's. */
  public Bill bill() {
    if (file == null) {
      throw new ConfigException("--bill: missing: the platform's bill file");
    }
    return DayClose.bill(platform(), file, date);
  }

  /** --channel's platform. */
  public Platform platform() {
    return switch (channel) {
      case "alipay" -> Platform.ALIPAY;
      case "wechat" -> Platform.WECHAT;
      default -> throw new ConfigException("--channel: '" + channel + "' is not " + BillsConfig.BILL_PLATFORMS
          + " (the bills paynotify reads; xunhupay, epusdt, vmq and tokenpay publish none)");
    };
  }
}
