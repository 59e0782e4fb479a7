package paynotify.recovery;

import io.vertx.core.Future;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.EventBooking;
import paynotify.channel.TradeQuery;
import paynotify.recovery.Asking.Answered;
import paynotify.recovery.Asking.Asked;
import paynotify.recovery.CheckAnswer.State;
import paynotify.store.OrdersTable;

/**
 * An order unpaid past recovery.close_unpaid_after_minutes closed: at its platform first (so no late payment can
 * land on it), then in the site's table, the site told order.closed.
 */
final class OrderExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(OrderExpiry.class);

  private final EventBooking booking;
  private final OrdersTable orders;

  OrderExpiry(EventBooking booking, OrdersTable orders) {
    this.booking = booking;
    this.orders = orders;
  }

  /**
   * Closed at the platform {@code a} came from, then in the table. A platform that will not close it (paid
   * meanwhile) is asked again at once: what it says then is for {@code paidMeanwhile} to act on.
   */
  Future<Asked> close(String orderNo, Answered a, Function<Answered, Future<Asked>> paidMeanwhile) {
    TradeQuery query = a.query();
    return query.close(orders.numbers().toPlatform(orderNo))
        .compose(v -> closeInTable(orderNo, a, "closed at " + query.platform().code()),
            err -> query.query(orders.numbers().toPlatform(orderNo)).compose(again -> again.payment() != null
                ? paidMeanwhile.apply(new Answered(query, again, null))
                : Future.failedFuture(err)));
  }

  /** Unpaid -> closed in the site's table (only from unpaid), the site told order.closed: booking's one door. */
  Future<Asked> closeInTable(String orderNo, Answered a, String how) {
    return booking.closeExpired(a.query().platform(), orderNo, a.answer().platformStatus())
        .map(moved -> {
          LOG.info("recovery: order {} unpaid past recovery.close_unpaid_after_minutes: {}{}", orderNo, how,
              moved ? " and in the orders table" : " (the order had moved meanwhile)");
          return new Asked(State.CLOSED, a.answer().platformStatus(), how + " after recovery.close_unpaid_after_minutes",
              true);
        });
  }
}
