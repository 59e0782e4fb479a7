package paynotify.booking;

import static paynotify.store.SqlQueries.LOCK_PAYMENT;
import static paynotify.store.SqlQueries.RELEASE_HELD_KEY;
import static paynotify.store.SqlQueries.SETTLE_PENDING_REFUNDS;
import static paynotify.store.SqlQueries.TRADE_HAS_STRANDED_REFUNDS;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.store.Database;
import paynotify.store.OrdersTable;

/**
 * Refunds left pending beside their booked payment, settled by the very settlement a payment's booking
 * runs, one trade per transaction with its payment locked, and the payment's key they held released.
 * Where they come from: a payment booked outside its own booking (notify.php during the cutover, by
 * hand), a refund booked by a release before refunds held keys, and on Galera a second refund that found
 * the key held already (it writes no row the payment claiming the key also writes, so certification does
 * not order the two). The periodic check finds them everywhere; on Galera every refund and payment booking
 * also looks at its own trade once committed: of the two, the one committed later sees both, its reads
 * being causal.
 */
public final class StrandedRefunds {
  private static final Logger LOG = LoggerFactory.getLogger(StrandedRefunds.class);

  private final Database db;
  private final OrdersTable orders;
  private final SiteEvents outbox;

  public StrandedRefunds(Database db, OrdersTable orders, SiteEvents outbox) {
    this.db = db;
    this.orders = orders;
    this.outbox = outbox;
  }

  /** Settles the trade's pending refunds if its payment is booked; a read and nothing else otherwise. */
  Future<Void> settleIfAny(Platform platform, String tradeNo) {
    return db.inTransaction(conn -> conn.preparedQuery(TRADE_HAS_STRANDED_REFUNDS)
            .execute(Tuple.of(platform.code(), tradeNo)))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture() : settle(platform, tradeNo));
  }

  /** Settles the pending refunds of a trade whose payment is booked. */
  public Future<Void> settle(Platform platform, String tradeNo) {
    Tuple trade = Tuple.of(platform.code(), tradeNo);
    return db.inTransaction(conn -> conn.preparedQuery(LOCK_PAYMENT).execute(trade)
        .compose(payments -> {
          Row payment = Rows.single(payments);
          return conn.preparedQuery(RELEASE_HELD_KEY).execute(Tuple.of(NotifyEvent.key(platform, EventKind.PAYMENT,
                  tradeNo)))
              .compose(released -> conn.preparedQuery(SETTLE_PENDING_REFUNDS).execute(trade))
              .compose(pending -> pending.rowCount() == 0 ? Future.succeededFuture()
                  // no notification at hand says the trade's mode: its refunds are told as live money
                  : RefundSettlement.settle(conn, orders, outbox, platform, tradeNo, payment.getString("order_no"),
                          payment.getLong("amount_cents"), NotifyEvent.key(platform, EventKind.PAYMENT, tradeNo), true)
                      .onSuccess(s -> LOG.warn("{} pending refund(s) of {} trade {} found beside its booked payment,"
                          + " settled now: {}", pending.rowCount(), platform.code(), tradeNo, s.result().detail()))
                      .mapEmpty());
        }));
  }
}
