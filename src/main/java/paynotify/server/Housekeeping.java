package paynotify.server;

import io.vertx.core.Vertx;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.check.BookedWaitCheck;
import paynotify.booking.check.OrderlessPaymentCheck;
import paynotify.booking.check.PendingRefundCheck;
import paynotify.store.KeyPurge;
import paynotify.timer.Periodic;

/**
 * The periodic work: the purge, the check of refunds still pending (settled, or flagged), of payments that named no
 * order (resolved, or told), then of waits for a confirmation whose trade was booked (resolved).
 */
record Housekeeping(KeyPurge purge, PendingRefundCheck pendingRefunds, OrderlessPaymentCheck orderlessPayments,
    BookedWaitCheck bookedWaits) {
  private static final Logger LOG = LoggerFactory.getLogger(Housekeeping.class);

  /** Runs every {@code period} until the clock returned is stopped, never two runs at once. */
  Periodic schedule(Vertx vertx, Duration period) {
    return Periodic.every(vertx, period, () -> purge.runOnce()
        .onSuccess(r -> LOG.info("purge: {} expired keys, {} notify_log rows, {} delivered events deleted",
            r.keysDeleted(), r.logRowsDeleted(), r.eventsDeleted()))
        .compose(r -> pendingRefunds.runOnce())
        .onSuccess(r -> {
          if (r.flagged() > 0) {
            LOG.warn("{} refund(s) still wait for their payment: see anomalies (refund_without_payment)", r.flagged());
          }
        })
        .compose(r -> orderlessPayments.runOnce())
        .compose(r -> bookedWaits.runOnce())
        .onFailure(err -> LOG.warn("housekeeping failed, will try again next period: {}", err.getMessage())));
  }
}
