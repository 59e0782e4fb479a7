package paynotify.server;

import io.vertx.core.Vertx;
import paynotify.booking.EventBooking;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.store.Stores;

/**
 * The booking a notification goes through, for a command that books (repair book, reconcile --repair): on a
 * Vert.x and pools of the command's own, closed with it once the bookings' notify_log rows are written.
 */
public final class StandaloneBooking implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final Stores stores;
  private final EventBooking booking;

  public StandaloneBooking(DatabaseSettings db, AppConfig config) {
    stores = Pools.stores(vertx, db, config.retention().rejectedRowsPerSecond());
    booking = new EventBooking(vertx, stores, config.booking(), config.orders(), PayNotifyServer.outbox(config));
  }

  public Vertx vertx() {
    return vertx;
  }

  public Stores stores() {
    return stores;
  }

  public EventBooking booking() {
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
