package paynotify.alert;

import java.util.List;
import java.util.Set;
import paynotify.channel.Platform;
import paynotify.store.RefusalEpisode;
import paynotify.store.WriteRefusals.Refusing;

/**
 * The owner told when the database starts refusing writes and when it is over ({@code database_refuses_writes},
 * {@code database_writes_again}: each its own throttle), naming the configured platforms that never deliver a
 * refused notification again.
 */
public final class RefusalAlerts {
  private final Alerts alerts;
  private final AlertMessages messages;
  private final List<Platform> withoutRetries;

  /** @param configured the platforms of the configured channels */
  public RefusalAlerts(Alerts alerts, Set<Platform> configured) {
    this.alerts = alerts;
    this.messages = new AlertMessages(alerts.texts());
    this.withoutRetries = Platform.withoutRetries().stream().filter(configured::contains).toList();
  }

  public void opened(Refusing refusing) {
    alerts.raise(messages.databaseRefusesWrites(refusing, withoutRetries));
  }

  public void ended(RefusalEpisode episode) {
    alerts.raise(messages.databaseWritesAgain(episode, withoutRetries));
  }
}
