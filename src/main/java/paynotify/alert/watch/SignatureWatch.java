package paynotify.alert.watch;

import static paynotify.store.SqlQueries.NOTIFICATIONS_SINCE;
import static paynotify.store.SqlQueries.NOTIFICATIONS_START;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.alert.SignatureBurst;
import paynotify.store.Database;

/**
 * A burst of notifications refused for their signature on a channel ({@link SignatureBurst}), told with all it
 * counts. Refused notifications are counted from the moment the service started (a window at most): a burst right
 * after a restart is told, and what came before the start was the previous process's to tell.
 */
final class SignatureWatch implements Watch {
  /** notify_log rows read per statement; a look reads pages until it is caught up, {@value #PAGES_PER_LOOK} at most. */
  private static final int NOTIFICATIONS_PER_PAGE = 5000;
  private static final int PAGES_PER_LOOK = 10;

  private final Database db;
  private final Alerts alerts;
  private final AlertMessages messages;
  private final Clock clock;
  private final Instant started;
  private final SignatureBurst bursts = new SignatureBurst();
  private Long notificationsSeen; // null until this instance holds the lease: then from its start, a window at most

  SignatureWatch(Database db, Alerts alerts, AlertMessages messages, Clock clock) {
    this.db = db;
    this.alerts = alerts;
    this.messages = messages;
    this.clock = clock;
    this.started = clock.instant();
  }

  /**
   * The notifications since the last look, through the burst detector, page after page until caught up; then the
   * bursts those make. The first look of a lease starts where {@link #started} was.
   */
  @Override
  public Future<Void> look(Instant now) {
    Future<Void> from = notificationsSeen != null ? Future.succeededFuture() : db.inTransaction(conn -> conn
        .preparedQuery(NOTIFICATIONS_START).execute(Tuple.of(sinceStart().toSeconds() + 1))).map(rows -> {
          notificationsSeen = rows.iterator().next().getLong(0);
          return null;
        });
    return from.compose(v -> pages(now, PAGES_PER_LOOK)).map(v -> {
      bursts.due(now).forEach(burst -> alerts.raise(messages.signatureBurst(burst)));
      return null;
    });
  }

  /**
   * Starts again when this instance next holds the lease, from a window before: the one looking until then may
   * have told a burst of them; it may be told twice, rather than not at all.
   */
  @Override
  public void forget() {
    notificationsSeen = null;
    bursts.clear();
  }

  /** How long the service has run, a burst's window at most (older refusals make none now). */
  private Duration sinceStart() {
    Duration up = Duration.between(started, clock.instant());
    return up.compareTo(SignatureBurst.WINDOW) < 0 ? up : SignatureBurst.WINDOW;
  }

  private Future<Void> pages(Instant now, int pagesLeft) {
    return db.inTransaction(conn -> conn.preparedQuery(NOTIFICATIONS_SINCE)
            .execute(Tuple.of(notificationsSeen, NOTIFICATIONS_PER_PAGE)))
        .compose(rows -> {
          for (Row r : rows) {
            notificationsSeen = r.getLong(0);
            bursts.seen(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                now.minusNanos(r.getLong(5) * 1000)); // received this long before the look
          }
          return rows.size() < NOTIFICATIONS_PER_PAGE || pagesLeft <= 1 ? Future.<Void>succeededFuture()
              : pages(now, pagesLeft - 1);
        });
  }
}
