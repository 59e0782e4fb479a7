package paynotify.alert.watch;

import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;

/**
 * The database not answering the watch for {@code database_down_minutes}: told once, by every instance that sees it
 * (there is no lease to agree on then), and told again when it answers.
 */
final class DatabaseDown {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseDown.class);

  private final Alerts alerts;
  private final AlertMessages messages;
  private final Duration after;
  private Instant failingSince;
  private boolean told;

  DatabaseDown(Alerts alerts, AlertMessages messages, Duration after) {
    this.alerts = alerts;
    this.messages = messages;
    this.after = after;
  }

  /** A look's statements were answered. */
  void answered() {
    if (told) {
      LOG.info("alerts: the database answers again");
      alerts.raise(messages.databaseBack());
    }
    failingSince = null;
    told = false;
  }

  /** A look at {@code now} was not answered, or not in time. */
  void failing(Throwable err, Instant now) {
    if (failingSince == null) {
      failingSince = now;
    }
    if (!told && !now.isBefore(failingSince.plus(after))) {
      told = true;
      alerts.raise(messages.databaseDown(Duration.between(failingSince, now).toMinutes(), err.getMessage()));
    }
  }
}
