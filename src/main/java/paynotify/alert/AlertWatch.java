package paynotify.alert;

import static paynotify.store.SqlQueries.ADD_ALERT_LEASE;
import static paynotify.store.SqlQueries.ANOMALY_TOLD;
import static paynotify.store.SqlQueries.DAILY_CLOSE_TOLD;
import static paynotify.store.SqlQueries.LAST_PAYMENT_ID;
import static paynotify.store.SqlQueries.NOTIFICATIONS_SINCE;
import static paynotify.store.SqlQueries.NOTIFICATIONS_START;
import static paynotify.store.SqlQueries.OLDEST_PENDING_SECONDS;
import static paynotify.store.SqlQueries.PAYMENTS_SINCE;
import static paynotify.store.SqlQueries.TAKE_ALERT_LEASE;
import static paynotify.store.SqlQueries.UNTOLD_ANOMALIES;
import static paynotify.store.SqlQueries.UNTOLD_DAILY_CLOSES;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.store.Database;
import paynotify.store.LeaseOwner;
import paynotify.store.TransientRetry;

/**
 * Looks every ten seconds for what to tell the owner, and raises it ({@link Alerts} throttles and sends): new
 * anomalies (whatever process recorded them: a booking, recovery, a reconcile run), daily closes over, a burst of
 * refused signatures on a channel, the site not taking events, every payment when asked to, and hourly the public
 * notify address ({@link SelfProbe}). One instance looks (a lease in alert_lease); an
 * anomaly or a close is told by whoever flips its {@code alerted} flag, so a change of hands tells nothing twice.
 * Anomalies over a day old when first seen (alerts just turned on) are marked told without a message. Refused
 * notifications are counted from the moment the service started (a window at most): a burst right after a restart
 * is told, and what came before the start was the previous process's to tell. The
 * database not answering for {@code database_down_minutes} is told by every instance that sees it: there is no
 * lease to agree on then.
 */
public final class AlertWatch {
  private static final Logger LOG = LoggerFactory.getLogger(AlertWatch.class);
  private static final Duration TICK = Duration.ofSeconds(10);
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final int ANOMALIES_PER_LOOK = 100;
  /** notify_log rows read per statement; a look reads pages until it is caught up, {@value #PAGES_PER_LOOK} at most. */
  private static final int NOTIFICATIONS_PER_PAGE = 5000;
  private static final int PAGES_PER_LOOK = 10;
  private static final int PAYMENTS_PER_LOOK = 500;
  private static final Duration PROBE_EVERY = Duration.ofHours(1);
  /** A look taking longer than this counts as the database not answering. */
  private static final Duration LOOK_LIMIT = Duration.ofSeconds(60);

  /**
   * What is watched besides anomalies, daily closes and signatures.
   *
   * @param forwardPendingAfter the site not taking events this long is told; null when forwarding is off
   * @param databaseDownAfter   the database not answering this long is told
   * @param probeUrl            the public notify address probed hourly; null: none
   * @param payments            every payment told (alerts.payments)
   */
  public record Watched(Duration forwardPendingAfter, Duration databaseDownAfter, URI probeUrl, boolean payments) {}

  private final Vertx vertx;
  private final Database db;
  private final Alerts alerts;
  private final AlertMessages messages;
  private final Watched watched;
  private final SelfProbe probe;
  private final Clock clock;
  private final String owner;
  private final TransientRetry retry;
  private final SignatureBurst bursts = new SignatureBurst();
  private final Instant started;
  private Long notificationsSeen; // null until this instance holds the lease: then from its start, a window at most
  private Long paymentsSeen;
  private Instant probedAt;
  private boolean probeFailing;
  private boolean siteBehind;
  private Instant failingSince;
  private boolean toldDown;
  private boolean looking;
  private Long timer;

  /** @param probe how the notify address is probed (on the alerts' own HTTP client) */
  public AlertWatch(Vertx vertx, Database db, Alerts alerts, Watched watched, SelfProbe probe, Clock clock) {
    this.vertx = vertx;
    this.db = db;
    this.alerts = alerts;
    this.messages = new AlertMessages(alerts.texts());
    this.watched = watched;
    this.probe = probe;
    this.clock = clock;
    this.started = clock.instant();
    this.owner = LeaseOwner.next();
    this.retry = new TransientRetry(vertx, 3);
  }

  public void start() {
    timer = vertx.setPeriodic(TICK.toMillis(), id -> {
      if (looking) {
        return;
      }
      looking = true;
      lookOnce(clock.instant()).onComplete(done -> looking = false);
    });
  }

  public void stop() {
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
  }

  /** One look (for tests: at {@code now}); never fails: a database that does not answer is itself news. */
  public Future<Void> lookOnce(Instant now) {
    // Two transactions, each run again if picked as a deadlock's victim (as DailyClose's claim)
    return retry.run(() -> db.inTransaction(conn -> conn.query(ADD_ALERT_LEASE).execute()))
        .compose(added -> retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(TAKE_ALERT_LEASE)
            .execute(Tuple.of(owner, LEASE.toSeconds(), owner)))))
        .compose(leased -> {
          answered();
          if (leased.rowCount() == 1) {
            return look(now);
          }
          forget(); // another instance looks: what this one saw goes stale
          return Future.<Void>succeededFuture();
        })
        .timeout(LOOK_LIMIT.toMillis(), TimeUnit.MILLISECONDS) // a database that hangs is one that does not answer
        .recover(err -> {
          failing(err, now);
          return Future.succeededFuture();
        });
  }

  /**
   * Starts again when this instance next holds the lease: refusals from a window before (the one looking until
   * then may have told a burst of them: it may be told twice, rather than not at all), payments from then.
   */
  private void forget() {
    notificationsSeen = null;
    paymentsSeen = null;
    bursts.clear();
  }

  private Future<Void> look(Instant now) {
    probe(now);
    return anomalies().compose(v -> dailyCloses()).compose(v -> notifications(now)).compose(v -> forward())
        .compose(v -> payments());
  }

  /** New anomalies, raised once their flags are committed (a rollback tells nothing; the next look retells). */
  private Future<Void> anomalies() {
    List<Alert> toTell = new ArrayList<>();
    return db.inTransaction(conn -> conn.preparedQuery(UNTOLD_ANOMALIES).execute(Tuple.of(ANOMALIES_PER_LOOK))
        .compose(rows -> {
          List<Row> list = new ArrayList<>();
          rows.forEach(list::add);
          Future<Void> told = Future.succeededFuture();
          for (Row r : list) {
            told = told.compose(v -> conn.preparedQuery(ANOMALY_TOLD).execute(Tuple.of(r.getLong(0))).map(flipped -> {
              if (flipped.rowCount() == 1 && !r.getBoolean(7)) { // over a day old, or resolved already: not news
                toTell.add(messages.anomaly(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                    r.getLong(5), r.getString(6)));
              }
              return null;
            }));
          }
          return told;
        }))
        .onSuccess(v -> toTell.forEach(alerts::raise));
  }

  private Future<Void> dailyCloses() {
    List<Alert> toTell = new ArrayList<>();
    return db.inTransaction(conn -> conn.query(UNTOLD_DAILY_CLOSES).execute().compose(rows -> {
      List<Row> list = new ArrayList<>();
      rows.forEach(list::add);
      Future<Void> told = Future.succeededFuture();
      for (Row r : list) {
        told = told.compose(v -> conn.preparedQuery(DAILY_CLOSE_TOLD).execute(Tuple.of(r.getString(0), r.getLocalDate(1)))
            .map(flipped -> {
              if (flipped.rowCount() == 1) {
                toTell.add(messages.dailyClose(r.getString(0), r.getLocalDate(1), r.getString(2), r.getString(3)));
              }
              return null;
            }));
      }
      return told;
    })).onSuccess(v -> toTell.forEach(alerts::raise));
  }

  /**
   * The notifications since the last look, through the burst detector, page after page until caught up; then the
   * bursts those make, each told with all it counts. The first look of a lease starts where {@link #started} was.
   */
  private Future<Void> notifications(Instant now) {
    Future<Void> from = notificationsSeen != null ? Future.succeededFuture() : db.inTransaction(conn -> conn
        .preparedQuery(NOTIFICATIONS_START).execute(Tuple.of(sinceStart().toSeconds() + 1))).map(rows -> {
          notificationsSeen = rows.iterator().next().getLong(0);
          return null;
        });
    return from.compose(v -> notificationPages(now, PAGES_PER_LOOK)).map(v -> {
      bursts.due(now).forEach(burst -> alerts.raise(messages.signatureBurst(burst)));
      return null;
    });
  }

  /** How long the service has run, a burst's window at most (older refusals make none now). */
  private Duration sinceStart() {
    Duration up = Duration.between(started, clock.instant());
    return up.compareTo(SignatureBurst.WINDOW) < 0 ? up : SignatureBurst.WINDOW;
  }

  private Future<Void> notificationPages(Instant now, int pagesLeft) {
    return db.inTransaction(conn -> conn.preparedQuery(NOTIFICATIONS_SINCE)
            .execute(Tuple.of(notificationsSeen, NOTIFICATIONS_PER_PAGE)))
        .compose(rows -> {
          for (Row r : rows) {
            notificationsSeen = r.getLong(0);
            bursts.seen(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                now.minusNanos(r.getLong(5) * 1000)); // received this long before the look
          }
          return rows.size() < NOTIFICATIONS_PER_PAGE || pagesLeft <= 1 ? Future.<Void>succeededFuture()
              : notificationPages(now, pagesLeft - 1);
        });
  }

  /** Every payment since the last look (alerts.payments); the ones before this instance first looked are not. */
  private Future<Void> payments() {
    if (!watched.payments()) {
      return Future.succeededFuture();
    }
    if (paymentsSeen == null) {
      return db.inTransaction(conn -> conn.query(LAST_PAYMENT_ID).execute()).map(rows -> {
        paymentsSeen = rows.iterator().next().getLong(0);
        return null;
      });
    }
    return db.inTransaction(conn -> conn.preparedQuery(PAYMENTS_SINCE).execute(Tuple.of(paymentsSeen,
        PAYMENTS_PER_LOOK))).map(rows -> {
          for (Row r : rows) {
            paymentsSeen = r.getLong(0);
            alerts.raise(messages.payment(r.getString(1), r.getString(2), r.getLong(3)));
          }
          return null;
        });
  }

  /** The public notify address, hourly (the first look at once): told when it fails, and when it works again. */
  private void probe(Instant now) {
    if (watched.probeUrl() == null || probedAt != null && now.isBefore(probedAt.plus(PROBE_EVERY))) {
      return;
    }
    probedAt = now;
    probe.probe(watched.probeUrl()).onComplete(probed -> {
      if (probed.failed() && !probeFailing) {
        LOG.warn("alerts: the probe of {} failed: {}", watched.probeUrl(), probed.cause().getMessage());
        alerts.raise(messages.probeFailed(probed.cause().getMessage()));
      } else if (probed.succeeded() && probeFailing) {
        alerts.raise(messages.probeBack());
      }
      probeFailing = probed.failed();
    });
  }

  /** The site not taking events: told when it starts, once. */
  private Future<Void> forward() {
    if (watched.forwardPendingAfter() == null) {
      return Future.succeededFuture();
    }
    return db.inTransaction(conn -> conn.query(OLDEST_PENDING_SECONDS).execute()).map(rows -> {
      Long oldest = rows.iterator().next().getLong(0);
      boolean behind = oldest != null && oldest >= watched.forwardPendingAfter().toSeconds();
      if (behind && !siteBehind) {
        alerts.raise(messages.forwardPending(oldest / 60));
      }
      siteBehind = behind;
      return null;
    });
  }

  private void answered() {
    if (toldDown) {
      LOG.info("alerts: the database answers again");
      alerts.raise(messages.databaseBack());
    }
    failingSince = null;
    toldDown = false;
  }

  private void failing(Throwable err, Instant now) {
    if (failingSince == null) {
      failingSince = now;
    }
    if (!toldDown && !now.isBefore(failingSince.plus(watched.databaseDownAfter()))) {
      toldDown = true;
      alerts.raise(messages.databaseDown(Duration.between(failingSince, now).toMinutes(), err.getMessage()));
    }
  }
}
