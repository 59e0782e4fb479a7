package paynotify.channel;

import io.vertx.core.Future;
import java.time.LocalDate;
import paynotify.net.OutboundFailure;

/**
 * A platform asked for its bill of one day's trades (Beijing time), as the file {@code paynotify reconcile
 * --bill} reads when the owner downloads it by hand: Alipay's zip of GBK CSVs, WeChat Pay's ALL bill (CSV
 * text). One implementation per platform, signing as its {@link TradeQuery} does; none touches the database.
 *
 * <p>Futures fail with {@link OutboundFailure}: {@link OutboundFailure.Kind#NOT_READY} when the platform has not
 * made that day's bill yet (before about 10:00 the next day), the other kinds as for a query.
 */
public interface BillSource {
  /** Whose bill it is. */
  Platform platform();

  /** What this client is, for logs, e.g. {@code alipay.data.dataservice.bill.downloadurl.query}. */
  String name();

  /**
   * The trades bill of {@code date}, whole. A day without trades is a bill too ({@link DayBill#none}): the
   * platform says so (WeChat's "No Bill Exist"), and reconciling it finds what was booked here that day.
   */
  Future<DayBill> fetch(LocalDate date);
}
