package paynotify.booking;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import paynotify.channel.NotifyEvent;
import paynotify.store.Database;
import paynotify.store.NotifyLog;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.SqlQueries;

/** Takes a verified event of any kind to where it is booked, and leaves its notify_log row. */
public final class EventBooking {
  private final Database db;
  private final BookingSettings settings;
  private final TransientRetry retry;
  private final BookingTransaction transaction;
  private final PaymentBooking payments = new PaymentBooking();
  private final RefundBooking refunds = new RefundBooking();

  public EventBooking(Vertx vertx, Database db, BookingSettings settings) {
    this.db = db;
    this.settings = settings;
    this.retry = new TransientRetry(vertx, settings.maxAttempts());
    this.transaction = new BookingTransaction(db, retry);
  }

  public Future<BookingResult> book(NotifyEvent event, Trace trace) {
    return switch (event.kind()) {
      case PAYMENT -> transaction.book(event, trace, payments);
      case REFUND -> transaction.book(event, trace, refunds);
      case CLOSE -> settings.tradeClosedClosesOrder() ? retry.run(() -> closeOrder(event, trace))
          : logOnly(event, trace, new BookingResult(Outcome.IGNORED, event.channel() + " closed trade "
              + event.tradeNo() + "; order " + event.orderNo() + " left as it is (booking.trade_closed_closes_order)"));
      case NONE -> logOnly(event, trace,
          new BookingResult(Outcome.IGNORED, "status " + event.channelStatus() + " books nothing"));
    };
  }

  /** A closed trade closes its order only while the order is unpaid. */
  private Future<BookingResult> closeOrder(NotifyEvent e, Trace trace) {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.CLOSE_ORDER).execute(Tuple.of(e.orderNo()))
        .map(updated -> updated.rowCount() == 1
            ? new BookingResult(Outcome.PROCESSED, "order " + e.orderNo() + " unpaid -> closed")
            : new BookingResult(Outcome.IGNORED, "order " + e.orderNo() + " is not unpaid (or unknown): left as it is"))
        .compose(result -> NotifyLog.record(conn, trace, result.outcome().code(), e.idempotencyKey(), result.detail())
            .map(result)));
  }

  private Future<BookingResult> logOnly(NotifyEvent e, Trace trace, BookingResult result) {
    return NotifyLog.record(db, trace, result.outcome().code(), e.idempotencyKey(), result.detail()).map(result);
  }
}
