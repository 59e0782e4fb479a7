package paynotify.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking.PaymentPlan;
import paynotify.booking.EventBooking;
import paynotify.booking.PaymentVerdict;
import paynotify.booking.PendingRefunds;
import paynotify.booking.SiteEvents;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.TradeQuery;
import paynotify.cli.options.BillOptions;
import paynotify.config.AppConfig;
import paynotify.forward.ForwardSettings;
import paynotify.reconcile.Bill;
import paynotify.reconcile.BillFormatException;
import paynotify.reconcile.BillRow;
import paynotify.recovery.FoundBy;
import paynotify.recovery.FoundPayment;
import paynotify.recovery.TradeConfirmation;
import paynotify.server.PayNotifyServer;
import paynotify.server.StandaloneBooking;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * repair book: a lost payment, booked from its bill row through the very booking transaction a
 * notification goes through (same key, same anomalies): running it twice, or racing the late
 * notification itself, books once. A bill file is only as good as whoever handed it over: the platform's
 * order query must confirm the row, or the operator say --unconfirmed where no client can ask; a payment made
 * before its order was created is not booked (FoundPayment, as for every payment found).
 */
@Command(name = "book", mixinStandardHelpOptions = true,
    description = "Book a payment the platform's bill shows and this database lacks (a lost notification). "
        + "Without --apply: say what would happen. With it, the platform's order query must confirm the row (paid,"
        + " same trade and amount; WeChat Pay v2 is asked with its API key whatever recovery.enabled says); where no"
        + " client can ask, only with --unconfirmed. Exit 0: done or nothing to do; 1: not booked (a conflict, the"
        + " platform does not confirm the row or says it was refunded since, no client can confirm it, or it was paid"
        + " before its order was created); 2: unusable bill or trade not on it; 3: database failure.")
final class RepairBookCommand extends CommandSupport {
  @Mixin
  BillOptions billOptions;

  @Option(names = "--trade-no", required = true, description = "the platform's trade number")
  String tradeNo;

  @Option(names = "--apply", description = "book it (without: only say what would happen)")
  boolean apply;

  @Option(names = "--unconfirmed", description = "with --apply, book the row though no platform client can confirm"
      + " it (no key to ask the platform with): only once you have checked the trade in the platform's merchant"
      + " console")
  boolean unconfirmed;

  @Override
  int run() throws Exception {
    Bill platformBill = billOptions.bill();
    BillRow row = paymentRow(platformBill);
    NotifyEvent event = new NotifyEvent(platformBill.platform(), EventKind.PAYMENT, row.orderNo(), row.tradeNo(),
        row.amountCents(), row.at(), "bill");
    String payment = "payment of " + event.platform().code() + " trade " + tradeNo + " (order " + row.orderNo()
        + ", " + Money.format(row.amountCents()) + ", paid " + row.at() + ")";
    try (CliDatabase db = CliDatabase.open(config);
        StandaloneBooking cli = new StandaloneBooking(db.settings(), db.config());
        PlatformClients clients = PlatformClients.confirming(cli.vertx(), db.config())) {
      AppConfig c = db.config();
      if (!c.orders().numbers().written(row.orderNo())) { // another site's on the same account
        return fail(ExitCode.FOUND, "not booked: order " + row.orderNo() + " is not written as orders.out_trade_no"
            + " writes this site's numbers: another site's on the same merchant account");
      }
      EventBooking booking = cli.booking();
      String createdAt = c.recovery().settings().createdAt();
      FoundPayment found = new FoundPayment(FoundBy.REPAIR, booking, cli.stores().log(), cli.stores().db(),
          PayNotifyServer.outbox(c), c.orders(), createdAt);
      TradeQuery query = clients.of(event.platform());
      boolean confirmable = query != null && query.books();
      String notChecked = createdAt != null ? null : "orders.columns.created_at is not mapped: not checked that it was"
          + " paid after its order was created";
      if (!apply) {
        ForwardSettings forward = c.forward();
        boolean tellsPayments = forward != null && forward.tells(SiteEvents.PAYMENT_SUCCEEDED);
        String early = found.paidBeforeItsOrder(event).await();
        out().println(early != null ? "would not book 1 " + payment + ": " + early + "; a "
            + AnomalyKind.PAID_BEFORE_ORDER.code() + " anomaly is recorded instead"
            : plan(booking.plan(event).await(), payment, row.amountCents(), tellsPayments)
                + (notChecked == null ? "" : " (" + notChecked + ")")
                + (confirmable ? "" : "; " + noClient(event) + ": --apply needs --unconfirmed"));
        out().flush();
        return 0;
      }
      String refused = confirmable ? TradeConfirmation.refusal(query, event, found)
          : unconfirmed ? null : noClient(event) + ": check the trade in the platform's merchant console, then run"
              + " again with --unconfirmed";
      if (refused != null) {
        return fail(ExitCode.FOUND, "not booked: " + refused);
      }
      BookingResult booked = found.book("cli", event, ("repair book from " + billOptions.file + " line " + row.line())
          .getBytes(StandardCharsets.UTF_8), false).await();
      if (notChecked != null) {
        out().println(notChecked);
      }
      return report(booked, payment);
    }
  }

  /** Why no client confirms a row of {@code event}'s platform. */
  private static String noClient(NotifyEvent event) {
    return "no platform client can confirm it (none asks " + event.platform().code() + " with answers it signs:"
        + " docs/operations.md, recovery)";
  }

  private int report(BookingResult result, String payment) {
    switch (result.outcome()) {
      case PROCESSED -> out().println("booked 1 " + payment + "; " + result.detail());
      case ANOMALY -> out().println("booked 1 " + payment + ", with an anomaly to look at: " + result.detail());
      case DUPLICATE -> out().println("nothing to do: trade " + tradeNo + " already booked");
      case IGNORED -> { // paid before its order existed: FoundPayment recorded why
        out().println(result.detail());
        out().flush();
        return ExitCode.FOUND;
      }
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
