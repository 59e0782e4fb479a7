package paynotify.server;

import io.vertx.core.Vertx;
import java.time.Clock;
import paynotify.alert.AlertClients;
import paynotify.alert.Alerts;
import paynotify.alert.SelfProbe;
import paynotify.alert.watch.AlertWatch;
import paynotify.config.AlertsConfig;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.store.Database;
import paynotify.store.Isolation;

/**
 * The alerts of the running service: their clients, the sender and the watch, on a pool of their own (one
 * connection: the watch never takes a booking's, and a busy booking pool is no "database down"), started and
 * stopped together.
 */
public record Alerting(AlertClients clients, Alerts alerts, AlertWatch watch, Database pool) {
  /** Null when no target is configured. */
  static Alerting of(Vertx vertx, DatabaseSettings db, AppConfig config) {
    AlertsConfig c = config.alerts();
    if (!c.on()) {
      return null;
    }
    AlertClients clients = new AlertClients(vertx, c.telegramProxy());
    Alerts alerts = new Alerts(vertx, c.build(clients), c.settings(), c.texts(), Clock.systemUTC());
    Database pool = Pools.connect(vertx, db.withPool(1, db.maxWaitQueue()), "alerts", Isolation.READ_COMMITTED);
    AlertWatch.Watched w = c.watched();
    AlertWatch watch = new AlertWatch(vertx, pool, alerts, new AlertWatch.Watched(config.forward() == null ? null
        : w.forwardPendingAfter(), w.databaseDownAfter(), w.probeUrl(), w.payments(), w.keys()),
        new SelfProbe(clients.direct()), Clock.systemUTC());
    return new Alerting(clients, alerts, watch, pool);
  }

  void start() {
    watch.start();
  }

  void stop() {
    watch.stop();
    alerts.close();
    clients.close();
    pool.close();
  }
}
