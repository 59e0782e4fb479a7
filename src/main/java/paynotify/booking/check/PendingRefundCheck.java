package paynotify.booking.check;

import static paynotify.store.SqlQueries.FLAG_STALE_PENDING_REFUNDS;
import static paynotify.store.SqlQueries.TRADES_WITH_STRANDED_REFUNDS;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.SiteEvents;
import paynotify.booking.StrandedRefunds;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Platform;
import paynotify.store.Database;
import paynotify.store.OrdersTable;

/**
 * The periodic look at refunds still pending:
 * <ul>
 *   <li>beside a booked payment (a payment's booking settles them in its transaction, so this is a
 *       payment booked outside it, a refund booked by an older release, or a Galera race:
 *       {@link paynotify.booking.StrandedRefunds}): settled now, by the very settlement a payment's
 *       booking runs, one trade per transaction with its payment locked,
 *   <li>still waiting for their payment after the retention: the payment notification was lost, or
 *       the refund belongs to a trade this site never booked. Each becomes one anomaly (recording it
 *       again adds nothing); the refund stays pending, so a late payment still settles it.
 * </ul>
 */
public final class PendingRefundCheck {
  private static final Logger LOG = LoggerFactory.getLogger(PendingRefundCheck.class);
  private static final AnomalyKind STALE = AnomalyKind.REFUND_WITHOUT_PAYMENT;
  /** Trades settled per run: more wait for the next run. */
  static final int BATCH = 100;

  private final Database db;
  private final SiteEvents outbox;
  private final StrandedRefunds stranded;
  private final Duration age;

  /** What one run did. */
  public record Result(int tradesSettled, int flagged) {}

  public PendingRefundCheck(Database db, OrdersTable orders, SiteEvents outbox, Duration age) {
    this.db = db;
    this.outbox = outbox;
    this.stranded = new StrandedRefunds(db, orders, outbox);
    this.age = age;
  }

  public Future<Result> runOnce() {
    return db.inTransaction(conn -> conn.preparedQuery(TRADES_WITH_STRANDED_REFUNDS).execute(Tuple.of(BATCH)))
        .compose(trades -> {
          Future<Integer> settled = Future.succeededFuture(0);
          for (Row trade : trades) {
            String channel = trade.getString("channel");
            String tradeNo = trade.getString("trade_no");
            // One trade that fails (a lock wait, a code no Platform has) is left for the next run, not the ones after it.
            settled = settled.compose(n -> Future.succeededFuture(channel).map(Platform::of)
                .compose(platform -> stranded.settle(platform, tradeNo)).map(n + 1).recover(err -> {
              LOG.warn("pending refunds of {} trade {} not settled, next run tries again: {}", channel, tradeNo,
                  err.getMessage());
              return Future.succeededFuture(n);
            }));
          }
          return settled;
        })
        .compose(settled -> db.inTransaction(conn -> conn.preparedQuery(FLAG_STALE_PENDING_REFUNDS)
                .execute(Tuple.of(STALE.code(), STALE.code(), age.toSeconds()))
                .compose(flagged -> flagged.rowCount() == 0 ? Future.succeededFuture(0)
                    : OpenAnomalies.tell(conn, outbox, STALE, Duration.ZERO).map(flagged.rowCount())))
            .map(flagged -> new Result(settled, flagged)));
  }
}
