package paynotify.app;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking;
import paynotify.booking.PaymentVerdict;
import paynotify.booking.PaymentVerdict.OrderRow;
import paynotify.channel.EventKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.reconcile.Bill;
import paynotify.reconcile.BillFormatException;
import paynotify.reconcile.BillRow;
import paynotify.store.Database;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.SqlQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * repair book: a lost payment, booked from its bill row through the very booking transaction a
 * notification goes through (same key, same anomalies): running it twice, or racing the late
 * notification itself, books once.
 */
@Command(name = "book", mixinStandardHelpOptions = true,
    description = "Book a payment the platform's bill shows and this database lacks (a lost notification). "
        + "Without --apply: say what would happen. Exit 0: done or nothing to do; 1: not booked (a "
        + "conflict); 2: unusable bill or trade not on it; 3: database failure.")
final class RepairBookCommand extends CommandSupport {
  @Mixin
  BillOptions billOptions;

  @Option(names = "--trade-no", required = true, description = "the platform's trade number")
  String tradeNo;

  @Option(names = "--apply", description = "book it (without: only say what would happen)")
  boolean apply;

  @Override
  int run() throws Exception {
    Bill platformBill = billOptions.bill();
    BillRow row = paymentRow(platformBill);
    NotifyEvent event = new NotifyEvent(platformBill.channel(), EventKind.PAYMENT, row.orderNo(), row.tradeNo(),
        row.amountCents(), row.at(), "bill");
    String payment = "payment of " + event.channel() + " trade " + tradeNo + " (order " + row.orderNo() + ", "
        + Money.format(row.amountCents()) + ", paid " + row.at() + ")";
    try (CliDatabase db = CliDatabase.open(config)) {
      if (!apply) {
        out().println(plan(db, event, payment));
        out().flush();
        return 0;
      }
      Vertx vertx = Vertx.vertx();
      Database database = PayNotifyServer.connect(vertx, db.settings());
      try {
        BookingResult result = new EventBooking(vertx, database, db.config().booking())
            .book(event, new Trace("repair", "cli", Buffer.buffer("repair book from " + billOptions.file + " line " + row.line())))
            .await();
        return report(result, payment);
      } finally {
        database.close().await();
        vertx.close().await();
      }
    }
  }

  private int report(BookingResult result, String payment) {
    switch (result.outcome()) {
      case PROCESSED -> out().println("booked 1 " + payment + "; " + result.detail());
      case ANOMALY -> out().println("booked 1 " + payment + ", with an anomaly to look at: " + result.detail());
      case DUPLICATE -> out().println("nothing to do: trade " + tradeNo + " already booked");
      default -> {
        out().println("not booked: " + result.outcome().code() + ": " + result.detail() + " (recorded as an anomaly)");
        out().flush();
        return FOUND;
      }
    }
    out().flush();
    return 0;
  }

  /** What --apply would do, read from the database without changing it (the booking's own verdict). */
  private static String plan(CliDatabase db, NotifyEvent e, String payment) throws SQLException {
    try (Connection conn = db.connect();
        PreparedStatement booked = conn.prepareStatement(SqlQueries.SELECT_PAYMENT);
        PreparedStatement order = conn.prepareStatement(SqlQueries.SELECT_ORDER)) {
      booked.setString(1, e.channel());
      booked.setString(2, e.tradeNo());
      try (ResultSet rs = booked.executeQuery()) {
        if (rs.next()) {
          return "nothing to do: trade " + e.tradeNo() + " already booked (order " + rs.getString(1) + ")";
        }
      }
      order.setString(1, e.orderNo());
      OrderRow row;
      try (ResultSet rs = order.executeQuery()) {
        row = rs.next() ? new OrderRow(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4)) : null;
      }
      if (row != null && row.status().equals("unpaid") && row.amountCents() == e.amountCents()) {
        return "would book 1 " + payment + "; order " + e.orderNo() + " unpaid -> paid (run again with --apply)";
      }
      PaymentVerdict verdict = PaymentVerdict.judge(row, e);
      return verdict.isAnomaly()
          ? "would book 1 " + payment + " and record an anomaly: " + verdict.anomaly().code() + ": "
              + verdict.detail() + " (run again with --apply)"
          : "would book 1 " + payment + "; " + verdict.detail() + " (run again with --apply)";
    }
  }

  private BillRow paymentRow(Bill platformBill) throws Exception {
    AtomicReference<BillRow> found = new AtomicReference<>();
    platformBill.read(row -> {
      if (!row.refund() && row.tradeNo().equals(tradeNo)) {
        found.compareAndSet(null, row);
      }
    });
    if (found.get() == null) {
      throw new BillFormatException(billOptions.file.toString(), 0, null,
          "trade " + tradeNo + " is not a payment row of this bill");
    }
    return found.get();
  }
}
