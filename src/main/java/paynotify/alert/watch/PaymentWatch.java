package paynotify.alert.watch;

import static paynotify.store.SqlQueries.LAST_PAYMENT_ID;
import static paynotify.store.SqlQueries.PAYMENTS_SINCE;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.store.Database;

/** Every payment booked (alerts.payments), since this instance first looked: the ones before are not told. */
final class PaymentWatch implements Watch {
  private static final int PAYMENTS_PER_LOOK = 500;

  private final Database db;
  private final Alerts alerts;
  private final AlertMessages messages;
  private Long paymentsSeen;

  PaymentWatch(Database db, Alerts alerts, AlertMessages messages) {
    this.db = db;
    this.alerts = alerts;
    this.messages = messages;
  }

  @Override
  public Future<Void> look(Instant now) {
    if (paymentsSeen == null) {
      return db.inTransaction(conn -> conn.query(LAST_PAYMENT_ID).execute()).map(rows -> {
        paymentsSeen = rows.iterator().next().getLong(0);
        return null;
      });
    }
    return db.inTransaction(conn -> conn.preparedQuery(PAYMENTS_SINCE).execute(Tuple.of(paymentsSeen,
        PAYMENTS_PER_LOOK))).map(rows -> {
          for (Row r : rows) {
            paymentsSeen = r.getLong(0);
            alerts.raise(messages.payment(r.getString(1), r.getString(2), r.getLong(3)));
          }
          return null;
        });
  }

  /** Payments from when this instance next holds the lease: those meanwhile were the other instance's to tell. */
  @Override
  public void forget() {
    paymentsSeen = null;
  }
}
