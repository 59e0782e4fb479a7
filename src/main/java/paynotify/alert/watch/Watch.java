package paynotify.alert.watch;

import io.vertx.core.Future;
import java.time.Instant;

/**
 * One thing the owner is told about, looked for at every look of the instance that holds the watch's lease, and
 * raised on {@link paynotify.alert.Alerts}: a new kind of alert is a new Watch in {@link AlertWatch}'s list.
 */
interface Watch {
  /** One look, at {@code now}; fails when the database does not answer (then nothing it found was raised). */
  Future<Void> look(Instant now);

  /** Another instance looks now: what this one saw goes stale. */
  default void forget() {
  }
}
