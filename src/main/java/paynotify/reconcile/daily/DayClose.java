package paynotify.reconcile.daily;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.function.Function;
import java.util.function.LongConsumer;
import paynotify.booking.EventBooking;
import paynotify.booking.SiteEvents;
import paynotify.channel.BillSource;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.AlipayBill;
import paynotify.reconcile.Bill;
import paynotify.reconcile.BillArchive;
import paynotify.reconcile.BillFormatException;
import paynotify.reconcile.DayWithoutTrades;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import paynotify.reconcile.WechatBill;
import paynotify.store.OrdersTable;
import paynotify.store.Stores;

/**
 * One platform's day closed: its bill fetched from the platform and kept ({@link FetchedBill}), compared with the
 * bookings ({@link Reconciliation}), the payments it shows that are safe to book booked ({@link BillRepair},
 * auto_repair), every other finding reported and, with {@code --record}, recorded as an anomaly ({@link Report});
 * then the duplicate audit of the same channel and window. What {@code paynotify reconcile --fetch} runs, by hand or
 * as the daily close's process ({@link CloseProcess}); a bill file given with {@code --bill} takes the same way
 * without the fetch and without repairs. Blocking, on JDBC: it runs in a tool's JVM, never in the service's.
 */
public final class DayClose {
  private final Platform platform;
  private final LocalDate day;

  public DayClose(Platform platform, LocalDate day) {
    this.platform = platform;
    this.day = day;
  }

  /**
   * What a close came to: the findings reported (0: clean; the repaired ones count), or why it stopped before
   * reporting anything ({@code notReady}: the platform has not made the day's bill yet, ask again later).
   */
  public record Outcome(long findings, String stopped, boolean notReady) {
    static Outcome reported(long findings) {
      return new Outcome(findings, null, false);
    }

    static Outcome stopped(String why, boolean notReady) {
      return new Outcome(0, why, notReady);
    }
  }

  /** What auto_repair books with: the booking a notification goes through, and the platform's order query. */
  public record AutoRepair(EventBooking booking, Stores stores, SiteEvents outbox, TradeQuery query,
      OrdersTable orders, String createdAt) {}

  /**
   * What a close reconciles and reports with, on the tool's connections.
   *
   * @param repair   null: nothing is booked, every finding goes on to the report
   * @param progress told the rows read so far, every 100,000
   */
  public record Desk(Reconciliation reconciliation, Report report, AutoRepair repair, LongConsumer progress) {}

  /** The reconciliation and report done at a desk. */
  public interface Work {
    Outcome at(Desk desk) throws IOException, SQLException, BillFormatException;
  }

  /**
   * Opens a desk for {@code work} and closes it after; called once the bill is in hand, so that a close stopped
   * before has opened nothing and printed nothing.
   */
  public interface Desks {
    Outcome open(Work work) throws IOException, SQLException, BillFormatException;
  }

  /**
   * Fetch, reconcile, repair, report.
   *
   * @param source the platform's bill download, on the HTTP client the fetch makes
   */
  public Outcome run(Function<OutboundHttp, BillSource> source, BillArchive archive, Desks desks)
      throws IOException, SQLException, BillFormatException {
    FetchedBill fetched;
    try {
      fetched = FetchedBill.fetch(source, archive, platform, day);
    } catch (OutboundFailure e) {
      return Outcome.stopped("--fetch: " + e.getMessage(), e.kind() == OutboundFailure.Kind.NOT_READY);
    } catch (IOException e) {
      return Outcome.stopped("--fetch: the bill could not be kept: " + e.getMessage()
          + " (reconcile.bills_dir must be writable)", false);
    }
    if (fetched.file() == null) {
      return desks.open(desk -> reconcile(desk, new DayWithoutTrades(platform, day),
          "(no trades on " + day + ", as the platform says)", day, desk.repair()));
    }
    return desks.open(desk -> reconcile(desk, bill(platform, fetched.file(), day), fetched.file().toString(), day,
        desk.repair()));
  }

  /**
   * A bill file given by hand, reconciled and reported as a fetched one, for whatever day it covers; never
   * repaired from: it is only as good as whoever handed it over ({@code repair book} asks the platform first).
   */
  public static Outcome given(Bill bill, String name, Desks desks)
      throws IOException, SQLException, BillFormatException {
    return desks.open(desk -> reconcile(desk, bill, name, null, null));
  }

  /** The bill in {@code file}, read as {@code platform}'s (the platforms whose bills are read: Alipay, WeChat Pay). */
  public static Bill bill(Platform platform, Path file, LocalDate day) {
    return switch (platform) {
      case ALIPAY -> new AlipayBill(file);
      case WECHAT -> new WechatBill(file, day);
      default -> throw new IllegalArgumentException(platform.code() + "'s bills are not read");
    };
  }

  /**
   * @param day    the day the bill must cover (a fetched one); null: whatever the file says
   * @param repair null: nothing is booked
   */
  private static Outcome reconcile(Desk desk, Bill bill, String name, LocalDate day, AutoRepair repair)
      throws IOException, SQLException, BillFormatException {
    Report report = desk.report();
    Bill.Summary read = desk.reconciliation().load(bill, desk.progress());
    if (day != null && (!read.from().equals(day.atStartOfDay()) || !read.to().equals(day.plusDays(1).atStartOfDay()))) {
      return Outcome.stopped(name + " covers " + read.from() + " to " + read.to() + ", not the day asked for ("
          + day + "): not reconciled", false);
    }
    String channel = bill.platform().code();
    report.bill(channel, name, read);
    BillRepair repairs = repair == null ? null : new BillRepair(report, repair.booking(), repair.stores(),
        repair.outbox(), repair.query(), repair.orders(), repair.createdAt(), bill.platform(), day);
    desk.reconciliation().compare(channel, read, repairs == null ? report : repairs);
    if (repairs != null) {
      repairs.repair();
    }
    desk.reconciliation().audit(report);
    return Outcome.reported(report.finish());
  }
}
