package paynotify.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import paynotify.config.ConfigException;
import paynotify.reconcile.AlipayBill;
import paynotify.reconcile.Bill;
import paynotify.reconcile.WechatBill;
import picocli.CommandLine.Option;

/** Which platform bill a command reads: {@code --channel}, {@code --bill}, {@code --date}. */
final class BillOptions {
  @Option(names = "--channel", required = true, description = "alipay or wechat")
  String channel;

  @Option(names = "--bill", required = true, converter = CallerPath.class, description = "Alipay: the .csv.zip as downloaded; WeChat: the ALL .csv")
  Path file;

  @Option(names = "--date", description = "WeChat bill date (yyyy-MM-dd) when the file name lacks it")
  LocalDate date;

  Bill bill() {
    return switch (channel) {
      case "alipay" -> new AlipayBill(file);
      case "wechat" -> new WechatBill(file, date);
      default -> throw new ConfigException("--channel: '" + channel + "' is not alipay or wechat");
    };
  }
}
