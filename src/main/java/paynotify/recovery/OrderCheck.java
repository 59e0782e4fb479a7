package paynotify.recovery;

import static paynotify.store.SqlQueries.ADD_ORDER_CHECK;
import static paynotify.store.SqlQueries.CLAIM_ORDER_CHECK;
import static paynotify.store.SqlQueries.LAST_ORDER_CHECK;
import static paynotify.store.SqlQueries.ORDER_CHECK_ANSWERED;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import paynotify.recovery.Asking.Question;
import paynotify.recovery.CheckAnswer.State;
import paynotify.store.Database;
import paynotify.store.Lease;
import paynotify.store.OrdersTable.OrderStatus;
import paynotify.store.OrdersTable;

/**
 * One order asked about now, for the site's return page ({@code /orders/:no/check}) and {@code paynotify check}: at
 * most once a cooldown whoever asked last, never while the sweeper holds it, and within the checks' share of the
 * budget; otherwise answered from the site's table and the last question.
 */
final class OrderCheck {
  /** A check of an order asked about less than this ago is answered from that question. */
  private static final Duration CHECK_COOLDOWN = Duration.ofSeconds(15);

  private final Database db;
  private final OrdersTable orders;
  private final RecoverySettings settings;
  private final Asking asking;
  private final Lease checks;
  private final String ageOf;

  /** @param checks order_checks' lease, shared with the sweeper */
  OrderCheck(Database db, OrdersTable orders, RecoverySettings settings, Asking asking, Lease checks) {
    this.db = db;
    this.orders = orders;
    this.settings = settings;
    this.asking = asking;
    this.checks = checks;
    this.ageOf = orders.ageOf(settings.createdAt());
  }

  /**
   * Asks about one order now and books what is found: the order's state once that is done. Answered from the
   * site's table without asking: an order that is not unpaid, one older than max_age (nothing found would be
   * booked automatically), one asked about less than {@link #CHECK_COOLDOWN} ago (by a check or the sweeper,
   * any instance: answered from that question), and any while the checks' share of the budget is spent.
   */
  Future<CheckAnswer> check(String orderNo) {
    return db.inTransaction(conn -> conn.preparedQuery(ageOf).execute(Tuple.of(orderNo, orderNo))
            .compose(rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(null);
              }
              Row age = rows.iterator().next();
              return orders.find(conn, orderNo, false).map(order -> new Found(order.status(), order.paidByChannel(),
                  age.getLong(0), age.getString(1)));
            }))
        .compose(order -> {
          if (order == null) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNKNOWN, null, "no such order"));
          }
          if (order.status() != OrderStatus.UNPAID) {
            return Future.succeededFuture(new CheckAnswer(orderNo, stateOf(order.status()), null,
                "not asked: the order is not unpaid"));
          }
          if (asking.queries().isEmpty()) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null,
                "no platform can be asked: see docs/operations.md, recovery"));
          }
          if (order.ageSeconds() == null) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null, "not asked: the order's age"
                + " is not known (no orders.columns.created_at, or none on this order), so a payment found could not"
                + " be told from another order's of the same number and would not be booked: look it up at the"
                + " platform, then paynotify repair book"));
          }
          if (order.ageSeconds() > settings.maxAge().toSeconds()) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null, "not asked: the order is"
                + " older than recovery.max_age_hours, and a payment found would not be booked automatically: look"
                + " it up at the platform, then paynotify repair book"));
          }
          if (!asking.budget().takeForCheck()) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null, "not asked now: checks have"
                + " spent their share of recovery.max_queries_per_minute; ask again in a few seconds"));
          }
          // taken like a lease, but by the time of the last question, not by an owner: so that the return page gets
          // its answer, it is run again when it loses a race all the same
          return checks.take(ADD_ORDER_CHECK, Tuple.of(orderNo), CLAIM_ORDER_CHECK,
                  owner -> Tuple.of(orderNo, CHECK_COOLDOWN.toSeconds()))
              .compose(claimed -> {
                if (claimed) {
                  return askNow(orderNo, order);
                }
                asking.budget().putBack();
                return lastQuestion(orderNo);
              });
        });
  }

  /** The check's question; what it heard kept for the cooldown; the order's state in the table after. */
  private Future<CheckAnswer> askNow(String orderNo, Found order) {
    // the return page asks right after paying, before the notification could come: no evidence then
    boolean evidence = order.ageSeconds() >= settings.minAge().toSeconds();
    Question question = new Question(orderNo, asking.platformOf(order.channel()), order.ref(), false, evidence);
    return asking.ask(question).compose(asked -> db
            .inTransaction(conn -> conn.preparedQuery(ORDER_CHECK_ANSWERED).execute(Tuple.of(asked.lastState(), orderNo))
                .compose(written -> orders.find(conn, orderNo, false)))
        .map(after -> new CheckAnswer(orderNo, stateOf(after == null ? null : after.status()), asked.platformStatus(),
            asked.detail())));
  }

  /** An unpaid order asked about within the cooldown, answered from that question. */
  private Future<CheckAnswer> lastQuestion(String orderNo) {
    return db.inTransaction(conn -> conn.preparedQuery(LAST_ORDER_CHECK).execute(Tuple.of(orderNo))).map(rows -> {
      Row last = rows.iterator().next();
      String said = Asking.NO_ANSWER.equals(last.getString(0)) ? null : last.getString(0);
      String detail = Integer.valueOf(1).equals(last.getInteger(2)) ? "not asked now: the sweeper is asking about it"
          : "not asked now: asked " + last.getLong(1) + " s ago (at most once every " + CHECK_COOLDOWN.toSeconds()
              + " s), " + (said == null ? "no answer yet" : "the platform said " + said);
      return new CheckAnswer(orderNo, State.UNPAID, said, detail);
    });
  }

  private record Found(OrderStatus status, String channel, Long ageSeconds, String ref) {}

  private static State stateOf(OrderStatus status) {
    if (status == null) {
      return State.UNKNOWN;
    }
    return switch (status) {
      case PAID -> State.PAID;
      case PARTIALLY_REFUNDED -> State.PARTIALLY_REFUNDED;
      case REFUNDED -> State.REFUNDED;
      case UNPAID -> State.UNPAID;
      case CLOSED -> State.CLOSED;
    };
  }
}
