package paynotify.cli;

import io.vertx.core.Vertx;
import paynotify.booking.EventBooking;
import paynotify.server.PayNotifyServer;
import paynotify.server.Pools;
import paynotify.store.Stores;

/**
 * The booking a notification goes through, for a command that books (repair book, reconcile --repair): on a
 * Vert.x and pools of the command's own, closed with it once the bookings' notify_log rows are written.
 */
final class CliBooking implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final Stores stores;
  private final EventBooking booking;

  CliBooking(CliDatabase db) {
    stores = Pools.stores(vertx, db.settings(), db.config().retention().rejectedRowsPerSecond());
    booking = new EventBooking(vertx, stores, db.config().booking(), db.config().orders(),
        PayNotifyServer.outbox(db.config()));
  }

  Vertx vertx() {
    return vertx;
  }

  Stores stores() {
    return stores;
  }

  EventBooking booking() {
    return booking;
  }

  @Override
  public void close() {
    try {
      stores.close().await(); // writes the bookings' notify_log rows first
    } finally {
      vertx.close().await();
    }
  }
}
