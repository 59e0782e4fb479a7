package paynotify.cli;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.concurrent.atomic.AtomicReference;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking.PaymentPlan;
import paynotify.booking.EventBooking;
import paynotify.booking.PaymentVerdict;
import paynotify.booking.PendingRefunds;
import paynotify.booking.SiteEvents;
import paynotify.channel.EventKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.config.AppConfig;
import paynotify.forward.ForwardSettings;
import paynotify.gateway.TradeQuery;
import paynotify.reconcile.Bill;
import paynotify.reconcile.BillFormatException;
import paynotify.reconcile.BillRow;
import paynotify.recovery.TradeConfirmation;
import paynotify.server.StandaloneBooking;
import paynotify.store.NotifyLog.Trace;
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
        + "conflict, or the platform, asked where its query is configured, does not confirm the row); 2: unusable bill"
        + " or trade not on it; 3: database failure.")
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
    NotifyEvent event = new NotifyEvent(platformBill.platform(), EventKind.PAYMENT, row.orderNo(), row.tradeNo(),
        row.amountCents(), row.at(), "bill");
    String payment = "payment of " + event.platform().code() + " trade " + tradeNo + " (order " + row.orderNo()
        + ", " + Money.format(row.amountCents()) + ", paid " + row.at() + ")";
    try (CliDatabase db = CliDatabase.open(config);
        StandaloneBooking cli = new StandaloneBooking(db.settings(), db.config())) {
      if (!db.config().orders().numbers().written(row.orderNo())) { // another site's on the same account
        return fail(ExitCode.FOUND, "not booked: order " + row.orderNo() + " is not written as orders.out_trade_no"
            + " writes this site's numbers: another site's on the same merchant account");
      }
      EventBooking booking = cli.booking();
      if (!apply) {
        ForwardSettings forward = db.config().forward();
        boolean tellsPayments = forward != null && forward.tells(SiteEvents.PAYMENT_SUCCEEDED);
        out().println(plan(booking.plan(event).await(), payment, row.amountCents(), tellsPayments));
        out().flush();
        return 0;
      }
      String refused = unconfirmed(cli.vertx(), db.config(), event);
      if (refused != null) {
        return fail(ExitCode.FOUND, "not booked: " + refused);
      }
      Trace trace = new Trace("repair", "cli", Buffer.buffer("repair book from " + billOptions.file + " line "
          + row.line()));
      BookingResult booked = booking.book(event).await();
      cli.stores().log().record(trace, booked.outcome().code(), event.idempotencyKey(), booked.detail());
      return report(booked, payment);
    }
  }

  /**
   * A bill file is only as good as whoever handed it over: where the platform can be asked, the trade is
   * booked only once the platform confirms it, paid, for this order and amount. Null when confirmed, or
   * when no client for the platform is configured (the bill is then taken as it is).
   */
  private String unconfirmed(Vertx vertx, AppConfig config, NotifyEvent event) {
    try (PlatformClients clients = new PlatformClients(vertx, config)) {
      TradeQuery query = clients.of(event.platform());
      return query == null ? null : TradeConfirmation.refusal(query, event);
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
        return ExitCode.FOUND;
      }
    }
    out().flush();
    return 0;
  }

  /** What --apply would do, as the booking itself judges it (read, nothing written). */
  private String plan(PaymentPlan plan, String payment, long paidCents, boolean tellsPayments) {
    if (plan.bookedFor() != null) {
      return "nothing to do: trade " + tradeNo + " already booked (order " + plan.bookedFor() + ")";
    }
    PaymentVerdict v = plan.verdict();
    String booking = v.isAnomaly()
        ? "would book 1 " + payment + " and record an anomaly: " + v.anomaly().code() + ": " + v.detail()
        : "would book 1 " + payment + "; " + v.detail();
    return booking + refunds(plan.refunds(), v, paidCents, tellsPayments) + " (run again with --apply)";
  }

  /**
   * The refunds that came before the payment, which its booking settles at once; when they pay it
   * all back, its payment.succeeded tells the site fulfil: false (the order goes unpaid -> refunded).
   */
  private static String refunds(PendingRefunds pending, PaymentVerdict v, long paidCents, boolean tellsPayments) {
    if (pending.refunds().isEmpty()) {
      return "";
    }
    StringBuilder line = new StringBuilder("; it settles what was refunded before it:");
    for (PendingRefunds.Refund r : pending.refunds()) {
      line.append(" pending refund ").append(r.refundNo()).append(' ').append(Money.format(r.amountCents()))
          .append(r.cumulative() ? " (the trade's running total)" : "").append(',');
    }
    line.append(" refunded ").append(Money.format(pending.refundedCents())).append(" of ")
        .append(Money.format(paidCents));
    if (tellsPayments && (v.movesOrder() || v.markedByThisTrade())) {
      line.append(pending.cover(paidCents) ? ": the site will be told fulfil: false (do not deliver)"
          : ": the site will be told fulfil: true, refunded_cents " + pending.refundedCents());
    }
    return line.toString();
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
