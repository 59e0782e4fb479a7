package paynotify.reconcile.daily;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking.PaymentPlan;
import paynotify.booking.EventBooking;
import paynotify.booking.SiteEvents;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.reconcile.Finding;
import paynotify.reconcile.Reconciliation.FindingSink;
import paynotify.reconcile.Report;
import paynotify.recovery.FoundBy;
import paynotify.recovery.FoundPayment;
import paynotify.recovery.TradeConfirmation;
import paynotify.store.OrderNumbers;
import paynotify.store.OrdersTable;
import paynotify.store.Stores;

/**
 * {@code reconcile.daily.auto_repair: missing_local}: a trade a fetched bill shows paid and nothing here booked,
 * whose order waits unpaid for exactly its amount, is booked as its notification would have been (the same
 * event, keys and transaction: {@link FoundPayment}). The bill came from the platform over an authenticated
 * request; a bill file handed over with {@code --bill} never gets here. The platform's order query must confirm
 * the trade too ({@link TradeConfirmation}), as for repair book: plainly paid, now (a trade refunded since the
 * bill's day is a {@code paid_then_refunded} anomaly); without a client that can ask (or one whose answers are not
 * signed) nothing is booked. With an
 * {@code orders.out_trade_no} template, its number must be written so (else it is another site's on the same
 * merchant account, whose order number may be one of ours). One paid before its order was created is not booked
 * either ({@code recovery.PaidBeforeOrder}). A trade with a
 * refund, on the bill or booked here, is left alone: booked now, the site would be told to deliver what was paid
 * back. Every other finding, and every one whose booking would be anything but "unpaid -> paid", goes on to the
 * report: an anomaly for a human.
 *
 * <p>The candidates are held until the bill has been compared (its refunds are compared after its payments, and
 * no booking runs inside the comparison's reads), at most {@value #MAX_HELD}; past that they are reported as they
 * come: a day with that many lost notifications needs a person, not a loop.
 */
final class BillRepair implements FindingSink {
  static final int MAX_HELD = 1000;

  private final Report report;
  private final EventBooking booking;
  private final FoundPayment found;
  private final TradeQuery query;
  private final OrderNumbers numbers;
  private final Platform platform;
  private final String source;
  private final List<Finding> held = new ArrayList<>();
  /** The trades the bill refunds and nothing here booked: none of them is booked paid. */
  private final Set<String> refunded = new HashSet<>();

  /**
   * @param query     the platform's order query, which must confirm each trade; null when none can ask (then
   *                  nothing is booked)
   * @param createdAt the site's column of an order's creation time; null when not mapped
   * @param day       the bill's, as notify_log names where the booking came from ({@code alipay bill 2026-03-14})
   */
  BillRepair(Report report, EventBooking booking, Stores stores, SiteEvents outbox, TradeQuery query,
      OrdersTable orders, String createdAt, Platform platform, LocalDate day) {
    this.report = report;
    this.booking = booking;
    this.query = query;
    this.numbers = orders.numbers();
    this.found = new FoundPayment(FoundBy.BILL, booking, stores.log(), stores.db(), outbox, orders, createdAt);
    this.platform = platform;
    this.source = platform.code() + " bill " + day;
  }

  @Override
  public void accept(Finding f) throws IOException, SQLException {
    if (f.kind() == Finding.Kind.REFUND_MISSING_LOCAL || f.kind() == Finding.Kind.REFUND_AMOUNT_MISMATCH) {
      refunded.add((String) f.fields().get("trade_no"));
    }
    if (f.kind() == Finding.Kind.MISSING_LOCAL && Boolean.TRUE.equals(f.fields().get("order_known"))
        && numbers.written((String) f.fields().get("order_no")) && held.size() < MAX_HELD) {
      held.add(f);
    } else {
      report.accept(f);
    }
  }

  /** Books what is safe, reports the rest; once the comparison is over, before the report is finished. */
  void repair() throws IOException, SQLException {
    for (Finding f : held) {
      NotifyEvent payment = payment(f);
      PaymentPlan plan = refunded.contains(payment.tradeNo()) ? null : booking.plan(payment).await();
      boolean safe = plan != null && plan.bookedFor() == null && !plan.verdict().isAnomaly()
          && plan.verdict().movesOrder() && plan.refunds().refunds().isEmpty();
      if (!safe || query == null || TradeConfirmation.refusal(query, payment, found) != null) {
        report.accept(f);
        continue;
      }
      // Between the plan and the booking a notification may come: the keys decide, as for any two deliveries
      BookingResult booked = found.book(source, payment, f.line().getBytes(StandardCharsets.UTF_8), true).await();
      switch (booked.outcome()) {
        case PROCESSED -> report.repaired(f, "booked: " + booked.detail());
        case DUPLICATE -> report.repaired(f, "booked meanwhile by its notification");
        // the order changed meanwhile: booked all the same (the platform has the money), its anomaly says why
        case ANOMALY -> report.repaired(f, "booked, with an anomaly: " + booked.detail());
        default -> report.accept(f);
      }
    }
    held.clear();
  }

  private NotifyEvent payment(Finding f) {
    return new NotifyEvent(platform, EventKind.PAYMENT, (String) f.fields().get("order_no"),
        (String) f.fields().get("trade_no"), (Long) f.fields().get("amount_cents"), f.time("paid_at"), "bill");
  }
}
