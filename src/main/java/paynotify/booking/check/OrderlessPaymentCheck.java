package paynotify.booking.check;

import static paynotify.store.SqlQueries.RESOLVE_BOOKED_OF_KIND;

import io.vertx.core.Future;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import paynotify.booking.SiteEvents;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.store.Database;

/**
 * The periodic look at payments that named no order (payment_without_order): one whose trade has since
 * been booked by a notification naming its order (a PaymentIntent's Checkout Session) is resolved; one
 * still open after {@code delay} is told to the site. A PaymentIntent without metadata.order_no is
 * recorded as soon as it arrives, but only told after that wait: on a Checkout site its Session books
 * it within seconds, on a site that creates PaymentIntents itself and forgot the metadata none ever
 * comes, and this is how that payment reaches a human.
 *
 */
public final class OrderlessPaymentCheck {
  private static final AnomalyKind KIND = AnomalyKind.PAYMENT_WITHOUT_ORDER;

  private final Database db;
  private final SiteEvents outbox;
  private final Duration delay;

  public OrderlessPaymentCheck(Database db, SiteEvents outbox, Duration delay) {
    this.db = db;
    this.outbox = outbox;
    this.delay = delay;
  }

  /** The number of payments without order resolved. */
  public Future<Integer> runOnce() {
    return db.inTransaction(conn -> conn.preparedQuery(RESOLVE_BOOKED_OF_KIND)
        .execute(Tuple.of("its trade was booked by a notification naming the order", KIND.code()))
        .map(RowSet::rowCount)
        .compose(resolved -> OpenAnomalies.tell(conn, outbox, KIND, delay).map(resolved)));
  }
}
