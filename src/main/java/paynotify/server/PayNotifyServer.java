package paynotify.server;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.admin.AdminVerticle;
import paynotify.admin.DatabaseGauges;
import paynotify.admin.Monitoring;
import paynotify.admin.PoolGauges;
import paynotify.admin.StatusReport;
import paynotify.alert.RefusalAlerts;
import paynotify.booking.EventBooking;
import paynotify.booking.SiteEvents;
import paynotify.booking.check.BookedWaitCheck;
import paynotify.booking.check.OrderlessPaymentCheck;
import paynotify.booking.check.PendingRefundCheck;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Platform;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.channel.wechat.WechatV3CertificateKeeper;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.config.RecoveryConfig;
import paynotify.forward.ForwardRelay;
import paynotify.http.NotifyMetrics;
import paynotify.http.NotifyVerticle;
import paynotify.http.Readiness;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.daily.DailyClose;
import paynotify.recovery.AfterRefusals;
import paynotify.recovery.CheckAnswer;
import paynotify.recovery.Confirmations;
import paynotify.recovery.Recovery;
import paynotify.store.Database;
import paynotify.store.Isolation;
import paynotify.store.KeyPurge;
import paynotify.store.NotifyLog;
import paynotify.store.PlatformCertificates;
import paynotify.store.RefusalEpisodes;
import paynotify.store.RejectedLog;
import paynotify.store.Stores;
import paynotify.store.WriteRefusals;
import paynotify.timer.Periodic;

/**
 * The running service on one Vert.x instance, wired in start order: the database pools, booking, the notify
 * verticle (one instance per event loop, sharing the port and the pool) and the admin listener; then what runs
 * beside them when configured: the forward relay, recovery (the sweeper and the order checks), the daily close,
 * the alerts and the housekeeping timer. What calls out (the relay, recovery, the alerts) has a pool of its own, so
 * a slow site or platform never holds a booking's connection. {@link #open()} starts the periodic work once the
 * database answers; {@link #stop()} ends it.
 */
public final class PayNotifyServer {
  /** The forward relay's connections (one more per endpoint), and how often it looks for due events. */
  private static final int RELAY_POOL = 1;
  private static final long RELAY_PERIOD_MS = 500;
  /** How long a PaymentIntent without order waits for its Checkout Session before a human is told. */
  private static final Duration ORDERLESS_PAYMENT_WAIT = Duration.ofHours(1);
  /** Recovery's connections, and the largest platform answer it reads (a query's: a few KiB). */
  private static final int RECOVERY_POOL = 2;
  private static final int MAX_ANSWER_BYTES = 64 * 1024;
  /** A page of Stripe events (20, a few KiB each, more with large metadata). */
  private static final int MAX_EVENTS_BYTES = 1024 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(PayNotifyServer.class);

  private final Vertx vertx;
  private final Stores stores;
  private final Database db;
  private final String deploymentId;
  private final int port;
  private final Readiness readiness;
  private final Duration purgeInterval;
  private final KeyPurge purge;
  private final PendingRefundCheck pendingRefunds;
  private final OrderlessPaymentCheck orderlessPayments;
  private final BookedWaitCheck bookedWaits;
  private final ForwardRelay relay;
  private final AdminVerticle admin;
  private final Recovery recovery;
  private final Runnable closeRecovery;
  private final DailyClose dailyClose;
  private final Alerting alerting;
  private final WriteRefusals refusals;
  private final WechatV3CertificateKeeper certificates;
  private volatile Periodic housekeepingTimer; // set by open()
  private volatile Periodic recoveryTimer; // set by open() when the sweeper is on

  private PayNotifyServer(Vertx vertx, Stores stores, String deploymentId, int port, Readiness readiness,
      Duration purgeInterval, KeyPurge purge, PendingRefundCheck pendingRefunds,
      OrderlessPaymentCheck orderlessPayments, BookedWaitCheck bookedWaits, ForwardRelay relay, AdminVerticle admin,
      Recovery recovery, Runnable closeRecovery, DailyClose dailyClose, Alerting alerting, WriteRefusals refusals,
      WechatV3CertificateKeeper certificates) {
    this.vertx = vertx;
    this.stores = stores;
    this.db = stores.db();
    this.deploymentId = deploymentId;
    this.port = port;
    this.readiness = readiness;
    this.purgeInterval = purgeInterval;
    this.purge = purge;
    this.pendingRefunds = pendingRefunds;
    this.orderlessPayments = orderlessPayments;
    this.bookedWaits = bookedWaits;
    this.relay = relay;
    this.admin = admin;
    this.recovery = recovery;
    this.closeRecovery = closeRecovery;
    this.dailyClose = dailyClose;
    this.alerting = alerting;
    this.refusals = refusals;
    this.certificates = certificates;
  }

  /**
   * Starts on an already migrated database; fails if it does not answer.
   *
   * @param commandLine as for {@link #listen}
   */
  public static Future<PayNotifyServer> start(Monitoring monitoring, AppConfig config, DatabaseSettings db,
      Class<?> commandLine) {
    return listen(monitoring, config, db, commandLine).compose(server -> server.open()
        .recover(err -> server.stop().transform(stopped -> Future.failedFuture(new ConfigException(
            "database: " + db + " does not answer: " + err.getMessage())))));
  }

  /**
   * Listens at once, without touching the database (the pool connects when first used): until
   * {@link #open()}, /health and every notification answer 503, so the platforms retry.
   *
   * @param commandLine the jar's command line ({@code cli.Main}), handed down from the top floor: the daily close
   *                    runs its {@code reconcile} as a process of its own
   */
  public static Future<PayNotifyServer> listen(Monitoring monitoring, AppConfig config, DatabaseSettings db,
      Class<?> commandLine) {
    Stores stores = Pools.stores(monitoring.vertx(), db, config.retention().rejectedRowsPerSecond());
    try {
      return listen(monitoring, config, db, commandLine, stores);
    } catch (RuntimeException e) { // thrown before the deployment: its pools and timers would outlive it
      stores.close();
      throw e;
    }
  }

  private static Future<PayNotifyServer> listen(Monitoring monitoring, AppConfig config, DatabaseSettings db,
      Class<?> commandLine, Stores stores) {
    Vertx vertx = monitoring.vertx();
    Database database = stores.db();
    SiteEvents outbox = outbox(config);
    PlatformCertificates kept = new PlatformCertificates(database);
    keepAlipayCertificates(config, kept);
    EventBooking booking = new EventBooking(vertx, stores, config.booking(), config.orders(), outbox);
    // The relay's own small pool: the site being down or slow never takes a booking's connection.
    Database relayPool = config.forward() == null ? null : Pools.connect(vertx,
        db.withPool(RELAY_POOL + config.forward().endpoints().size(), db.maxWaitQueue()), "forward-relay",
        Isolation.READ_COMMITTED);
    ForwardRelay relay = relayPool == null ? null : new ForwardRelay(vertx, relayPool, config.forward());
    Readiness readiness = new Readiness();
    AtomicReference<NotifyVerticle> first = new AtomicReference<>();
    AppConfig.Retention r = config.retention();
    List<String> endpoints = config.channels().enabled().stream().map(NotifyChannel::endpoint).toList();
    NotifyMetrics metrics = monitoring.registry() == null ? NotifyMetrics.OFF
        : new NotifyMetrics(monitoring.registry(), endpoints);
    metrics.countLogDrops("notifications", stores.log(), NotifyLog::droppedTotal);
    metrics.countLogDrops("rejected", stores.rejected(), RejectedLog::droppedTotal);
    metrics.countUnrecorded(stores.rejected(), RejectedLog::unrecorded);
    // Recovery's own small pool and HTTP client: a slow platform never holds a booking's connection.
    RecoveryConfig rc = config.recovery();
    boolean asks = !rc.clients().isEmpty() || !rc.missed().isEmpty();
    Database recoveryPool = !asks ? null
        : Pools.connect(vertx, db.withPool(RECOVERY_POOL, db.maxWaitQueue()), "recovery", Isolation.READ_COMMITTED);
    OutboundHttp gateways = !asks ? null : new OutboundHttp(vertx, rc.settings().timeout(), MAX_ANSWER_BYTES);
    OutboundHttp eventsApi = rc.missed().isEmpty() ? null
        : new OutboundHttp(vertx, rc.settings().timeout(), MAX_EVENTS_BYTES);
    Recovery recovery = !asks ? null : new Recovery(vertx, recoveryPool, booking, stores.log(), config.orders(), outbox,
        rc.clients().stream().map(client -> client.apply(gateways)).toList(),
        rc.missed().stream().map(feed -> feed.apply(eventsApi, recoveryPool)).toList(), rc.settings());
    // a signed notification's question to its platform (confirm_before_book): a budget and a time limit of its own
    Confirmations confirmations = recovery == null ? null : new Confirmations(recovery::unconfirmed,
        rc.settings().timeout(), config.http().requestTimeout(), rc.confirmationsPerMinute());
    Runnable closeRecovery = () -> {
      if (recovery != null) {
        gateways.close();
        recoveryPool.close();
      }
      if (eventsApi != null) {
        eventsApi.close();
      }
    };
    if (rc.settings().createdAt() == null) {
      LOG.warn("orders.columns.created_at is not mapped: no order is asked about by its age, and a payment found in a"
          + " bill (auto_repair, repair book) is booked without checking that it was made after its order was created"
          + " (docs/operations.md, Recovery)");
    }
    Alerting alerting = Alerting.of(vertx, db, config);
    RefusalAlerts told = alerting == null ? null : new RefusalAlerts(alerting.alerts(), config.channels().platforms());
    // An episode over: kept in write_refusals (the status' and the daily close's), its window's orders asked first.
    // Written on the booking pool (the status pool's two connections are /health's), read on the status pool.
    AfterRefusals afterRefusals = new AfterRefusals(new RefusalEpisodes(vertx, database), stores.status(),
        config.orders(), AfterRefusals.endpoints(config.channels().enabled()), rc.settings(), recovery,
        Clock.systemUTC());
    WriteRefusals refusals = new WriteRefusals(vertx, database, WriteRefusals.Timing.DEFAULT, Clock.systemUTC(),
        refusing -> {
          if (told != null) {
            told.opened(refusing);
          }
        }, episode -> {
          if (told != null) {
            told.ended(episode);
          }
        }, afterRefusals::ended);
    // Once, here: the uptime counts from the start, not from each request.
    StatusReport.Context status = new StatusReport.Context(endpoints, Instant.now(), relay,
        stores.rejected()::unrecordedTotal, config.bills().daily(), Clock.systemUTC(), refusals::refusing,
        afterRefusals, endpoint -> config.channels().enabled().stream().filter(c -> c.endpoint().equals(endpoint))
            .findFirst().map(NotifyChannel::keysSeen).orElse(null));
    if (monitoring.registry() != null) {
      PoolGauges.register(monitoring.registry(), stores.reads().counts());
      Stream.of(database, stores.logPool(), stores.status(), relayPool, recoveryPool,
              alerting == null ? null : alerting.pool())
          .filter(Objects::nonNull).forEach(pool -> PoolGauges.register(monitoring.registry(), pool.counts()));
    }
    DailyClose dailyClose = !config.bills().daily().enabled() ? null
        : new DailyClose(vertx, database, config.bills().daily(), config.bills().dir(), Clock.systemUTC(),
            commandLine);
    WechatV3CertificateKeeper certificates = WechatV3CertificateKeeper.of(vertx, config.channels().enabled(),
        kept.shelf(Platform.WECHAT, PlatformCertificates.Source.DOWNLOADED), Clock.systemUTC());
    AdminVerticle admin = config.admin() == null ? null : new AdminVerticle(config.admin(), monitoring.registry(),
        new DatabaseGauges(monitoring.registry(), stores.status(), relay)::refresh,
        StatusReport.cached(stores.status(), status),
        recovery == null ? null : orderNo -> recovery.check(orderNo).map(CheckAnswer::toJson),
        relay == null ? null : relay::replay);
    return vertx.deployVerticle(() -> {
          NotifyVerticle verticle = new NotifyVerticle(config.http(), config.channels().enabled(),
              config.channels().disabled(), booking, stores.log(), stores.rejected(), readiness,
              relay == null ? null : relay::backlog, metrics, refusals,
              confirmations == null ? null : confirmations::why);
          first.compareAndSet(null, verticle);
          return verticle;
        }, new DeploymentOptions().setInstances(config.httpInstances()))
        .compose(id -> admin == null ? Future.succeededFuture(id) : vertx.deployVerticle(admin).map(id)
            .recover(err -> Future.failedFuture(PortInUse.admin(config.admin(), err))))
        .map(id -> new PayNotifyServer(vertx, stores, id, first.get().actualPort(), readiness, r.purgeInterval(),
            new KeyPurge(vertx, database, r.keys(), r.notifyLog(), r.rejected(), r.deliveredEvents(), r.batchSize()),
            new PendingRefundCheck(database, config.orders(), outbox, r.keys()),
            new OrderlessPaymentCheck(database, outbox, ORDERLESS_PAYMENT_WAIT), new BookedWaitCheck(database), relay,
            admin, recovery,
            closeRecovery, dailyClose, alerting, refusals, certificates))
        .onFailure(err -> {
          closeRecovery.run();
          if (certificates != null) {
            certificates.stop();
          }
          if (alerting != null) {
            alerting.stop();
          }
          stores.close().eventually(() -> relay == null ? Future.succeededFuture() : relay.stop());
        });
  }

  /**
   * Once the schema is migrated: checks that the pool reaches the database, then books
   * notifications and starts the housekeeping timer.
   */
  public Future<PayNotifyServer> open() {
    return db.ping().map(ping -> {
      readiness.markReady();
      housekeepingTimer = new Housekeeping(purge, pendingRefunds, orderlessPayments, bookedWaits)
          .schedule(vertx, purgeInterval);
      if (relay != null) {
        relay.start(RELAY_PERIOD_MS);
      }
      if (recovery != null && recovery.sweeps()) {
        recoveryTimer = recovery.schedule(vertx);
      }
      if (recovery != null) {
        LOG.info("{}", recovery);
      }
      if (dailyClose != null) {
        dailyClose.schedule();
      }
      if (alerting != null) {
        alerting.start();
      }
      if (certificates != null) {
        certificates.start();
      }
      return this;
    });
  }

  /**
   * A certificate-mode Alipay merchant's re-issued certificate, kept in platform_certificates by whichever instance
   * fetched it: every instance finds it there (read when an answer or a notification needs it, not at start: the
   * schema may not be migrated yet).
   */
  private static void keepAlipayCertificates(AppConfig config, PlatformCertificates kept) {
    config.channels().enabled().stream().filter(AlipayChannel.class::isInstance).map(AlipayChannel.class::cast)
        .map(alipay -> alipay.signature().certificates()).filter(Objects::nonNull)
        .forEach(certs -> certs.keepIn(kept.shelf(Platform.ALIPAY, PlatformCertificates.Source.REISSUED)));
  }

  /** What the site is told, in the booking transaction: nothing while forward.url is not set. */
  public static SiteEvents outbox(AppConfig config) {
    return config.forward() == null ? SiteEvents.OFF : new SiteEvents(config.forward().endpointsByType());
  }

  public int port() {
    return port;
  }

  // For tests: the periodic work and the refused-request queue, run or drained on demand.

  public KeyPurge purge() {
    return purge;
  }

  public PendingRefundCheck pendingRefunds() {
    return pendingRefunds;
  }

  public OrderlessPaymentCheck orderlessPayments() {
    return orderlessPayments;
  }

  public BookedWaitCheck bookedWaits() {
    return bookedWaits;
  }

  /** The notify_log rows queued so far, written: verified notifications' and refused requests'. */
  public Future<Void> drainLogs() {
    return stores.log().drain().compose(v -> stores.rejected().drain());
  }

  /** The admin listener's port; -1 when it is off. */
  public int adminPort() {
    return admin == null ? -1 : admin.actualPort();
  }

  /** Null when no platform can be asked. */
  public Recovery recovery() {
    return recovery;
  }

  /** Null when reconcile.daily is off. */
  public DailyClose dailyClose() {
    return dailyClose;
  }

  /** Null when no alert target is configured. */
  public Alerting alerting() {
    return alerting;
  }

  /** Whether the database refuses writes now. */
  public WriteRefusals writeRefusals() {
    return refusals;
  }

  /** Null when forwarding is off. */
  public ForwardRelay forwardRelay() {
    return relay;
  }

  /** Null when WeChat Pay's platform certificates are not downloaded (wechat_v3.download_certificates). */
  public WechatV3CertificateKeeper certificateKeeper() {
    return certificates;
  }

  /**
   * Stops taking connections, answers the requests in flight (within http.shutdown_grace_ms),
   * then closes the pool.
   */
  public Future<Void> stop() {
    refusals.stop(); // an episode still open is kept as it stands (no alert: whether it writes again is not known)
    if (housekeepingTimer != null) {
      housekeepingTimer.stop();
    }
    if (recoveryTimer != null) {
      recoveryTimer.stop();
    }
    if (dailyClose != null) {
      dailyClose.stop();
    }
    if (alerting != null) {
      alerting.stop();
    }
    return vertx.undeploy(deploymentId)
        .eventually(() -> relay == null ? Future.succeededFuture() : relay.stop())
        .eventually(() -> certificates == null ? Future.succeededFuture() : certificates.stop())
        .eventually(() -> {
          closeRecovery.run();
          return stores.close();
        });
  }
}
