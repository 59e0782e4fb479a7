package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.store.Database;
import paynotify.store.OrdersTable;

/**
 * A payment found by asking or in a bill whose platform time is earlier than its order's creation: the trade
 * paid an earlier order of the same number (order numbers handed out again after a database restore or a
 * reinstall, another site on the same merchant account), not this one. The platform's time is Beijing's, the
 * site's created_at is in database.time_zone: the database compares them as instants. A few minutes of
 * difference are the two clocks disagreeing, not an earlier order. Off where orders.columns.created_at is not
 * mapped.
 */
final class PaidBeforeOrder {
  /** How far the platform's clock and the site's may disagree. */
  static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private final Database db;
  private final OrdersTable orders;
  private final String statement;

  /** @param createdAt the site's column of an order's creation time; null when not mapped (the check is off) */
  PaidBeforeOrder(Database db, OrdersTable orders, String createdAt) {
    this.db = db;
    this.orders = orders;
    this.statement = createdAt == null ? null : orders.createdAfterPayment(createdAt);
  }

  /**
   * Null when {@code payment} may be booked on its order as far as times go (paid after the order was created,
   * within the skew, not a payment, no such order, booked already, or the check is off); else why not, naming both
   * times and the trade, for the anomaly and the operator.
   */
  Future<String> refusal(NotifyEvent payment) {
    String orderNo = orders.numbers().toSite(payment.orderNo());
    if (statement == null || payment.kind() != EventKind.PAYMENT || payment.paidAt() == null || orderNo == null) {
      return Future.succeededFuture(null);
    }
    return db.inTransaction(conn -> conn.preparedQuery(statement)
        .execute(Tuple.of(payment.paidAt(), CLOCK_SKEW.toSeconds(), orderNo, orderNo, payment.platform().code(),
            payment.tradeNo()))
        .map(rows -> {
          Row order = rows.size() == 0 ? null : rows.iterator().next();
          if (order == null || order.getValue(2) == null || order.getInteger(2) != 1) {
            return null;
          }
          return payment.platform().code() + " trade " + payment.tradeNo() + " was paid "
              + SECONDS.format(payment.paidAt()) + " (Beijing time), before order " + orderNo + " was created "
              + order.getString(0) + " (database.time_zone " + order.getString(1) + ")";
        }));
  }
}
