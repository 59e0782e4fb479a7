package paynotify.store;

import io.vertx.core.Future;

/**
 * The service's pools and request logs, built once (server's {@code Pools}) and shared: where bookings
 * and their traces go.
 *
 * @param db       the booking pool (REPEATABLE READ, autocommit off)
 * @param reads    the duplicate pre-check's pool
 * @param log      verified notifications' rows
 * @param rejected refused requests' rows
 * @param logPool  the connection both logs write on
 * @param status   the reads of /health and the admin listener: a pool of their own, so that polling them
 *                 never takes a booking's connection or its place in the wait queue
 */
public record Stores(Database db, CommittedReads reads, NotifyLog log, RejectedLog rejected, Database logPool,
    Database status) {
  /** Writes the queued rows, then closes every pool. */
  public Future<Void> close() {
    return log.close().eventually(rejected::close).eventually(logPool::close).eventually(reads::close)
        .eventually(status::close).eventually(db::close);
  }
}
