package paynotify.booking.check;

import static paynotify.store.SqlQueries.RESOLVE_BOOKED_OF_KIND;

import io.vertx.core.Future;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
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
 * <p>The same look resolves a signed payment's wait for its platform's confirmation (awaiting_confirmation,
 * confirm_before_book) whose trade is booked: the booking resolves it as it commits, but not one that committed on
 * another Galera node beside the wait's insert, nor the sweeper's booking from a signed answer.
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

  /** The number of payments without order resolved (waits resolved are not counted). */
  public Future<Integer> runOnce() {
    return db.inTransaction(conn -> resolve(conn, KIND, "its trade was booked by a notification naming the order")
        .compose(resolved -> OpenAnomalies.tell(conn, outbox, KIND, delay).map(resolved)))
        .compose(resolved -> db.inTransaction(conn -> resolve(conn, AnomalyKind.AWAITING_CONFIRMATION,
            "its trade was booked: nothing is waiting")).map(resolved));
  }

  private static Future<Integer> resolve(SqlConnection conn, AnomalyKind kind, String note) {
    return conn.preparedQuery(RESOLVE_BOOKED_OF_KIND).execute(Tuple.of(note, kind.code())).map(RowSet::rowCount);
  }
}
