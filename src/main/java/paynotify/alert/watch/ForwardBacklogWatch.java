package paynotify.alert.watch;

import static paynotify.store.SqlQueries.OLDEST_PENDING_SECONDS;

import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.store.Database;

/** The site not taking events (the oldest one pending longer than forward_pending_minutes): told when it starts, once. */
final class ForwardBacklogWatch implements Watch {
  private final Database db;
  private final Alerts alerts;
  private final AlertMessages messages;
  private final Duration pendingAfter;
  private boolean siteBehind;

  ForwardBacklogWatch(Database db, Alerts alerts, AlertMessages messages, Duration pendingAfter) {
    this.db = db;
    this.alerts = alerts;
    this.messages = messages;
    this.pendingAfter = pendingAfter;
  }

  @Override
  public Future<Void> look(Instant now) {
    return db.inTransaction(conn -> conn.query(OLDEST_PENDING_SECONDS).execute()).map(rows -> {
      Long oldest = rows.iterator().next().getLong(0);
      boolean behind = oldest != null && oldest >= pendingAfter.toSeconds();
      if (behind && !siteBehind) {
        alerts.raise(messages.forwardPending(oldest / 60));
      }
      siteBehind = behind;
      return null;
    });
  }
}
