package paynotify.alert.watch;

import static paynotify.store.SqlQueries.ADD_ALERT_LEASE;
import static paynotify.store.SqlQueries.TAKE_ALERT_LEASE;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.alert.SelfProbe;
import paynotify.store.Database;
import paynotify.store.Lease;
import paynotify.timer.Periodic;

/**
 * Looks every ten seconds for what to tell the owner, through each {@link Watch} (new anomalies, daily closes over,
 * a burst of refused signatures on a channel, the site not taking events, every payment when asked to, hourly the
 * public notify address and the certificates about to expire or re-issued, WeChat Pay's switch to its public key not
 * configured), which raise it on {@link Alerts} (it throttles and sends). One instance looks: whoever
 * holds the lease in alert_lease, renewed at every look; the others' watches forget what they saw. The database
 * not answering for {@code database_down_minutes} is told by every instance that sees it ({@link DatabaseDown}).
 */
public final class AlertWatch {
  private static final Duration TICK = Duration.ofSeconds(10);
  private static final Duration LEASE = Duration.ofSeconds(60);
  /** A look taking longer than this counts as the database not answering. */
  private static final Duration LOOK_LIMIT = Duration.ofSeconds(60);

  /**
   * What is watched besides anomalies, daily closes and signatures.
   *
   * @param forwardPendingAfter the site not taking events this long is told; null when forwarding is off
   * @param databaseDownAfter   the database not answering this long is told
   * @param probeUrl            the public notify address probed hourly; null: none
   * @param payments            every payment told (alerts.payments)
   * @param keys                the configured keys that can break by themselves (certificates, WeChat's switch)
   */
  public record Watched(Duration forwardPendingAfter, Duration databaseDownAfter, URI probeUrl, boolean payments,
      WatchedKeys keys) {
    /** With no key watched. */
    public Watched(Duration forwardPendingAfter, Duration databaseDownAfter, URI probeUrl, boolean payments) {
      this(forwardPendingAfter, databaseDownAfter, probeUrl, payments, WatchedKeys.NONE);
    }
  }

  private final Vertx vertx;
  private final Lease lease;
  private final Clock clock;
  private final DatabaseDown down;
  /** In the order they look. */
  private final List<Watch> watches = new ArrayList<>();
  private Periodic timer;

  /** @param probe how the notify address is probed (on the alerts' own HTTP client) */
  public AlertWatch(Vertx vertx, Database db, Alerts alerts, Watched watched, SelfProbe probe, Clock clock) {
    this.vertx = vertx;
    this.lease = new Lease(vertx, db);
    this.clock = clock;
    AlertMessages messages = new AlertMessages(alerts.texts());
    this.down = new DatabaseDown(alerts, messages, watched.databaseDownAfter());
    if (watched.probeUrl() != null) {
      watches.add(new ProbeWatch(probe, watched.probeUrl(), alerts, messages));
    }
    watches.add(new AnomalyWatch(db, alerts, messages));
    watches.add(new DailyCloseWatch(db, alerts, messages));
    watches.add(new SignatureWatch(db, alerts, messages, clock));
    if (watched.forwardPendingAfter() != null) {
      watches.add(new ForwardBacklogWatch(db, alerts, messages, watched.forwardPendingAfter()));
    }
    if (watched.payments()) {
      watches.add(new PaymentWatch(db, alerts, messages));
    }
    watches.add(new CertificateWatch(db, alerts, messages, watched.keys()));
    if (watched.keys().wechatV3() && !watched.keys().wechatPublicKey()) {
      watches.add(new PublicKeySwitchWatch(db, alerts, messages));
    }
  }

  public void start() {
    timer = Periodic.every(vertx, TICK, () -> lookOnce(clock.instant()));
  }

  public void stop() {
    if (timer != null) {
      timer.stop();
    }
  }

  /** One look (for tests: at {@code now}); never fails: a database that does not answer is itself news. */
  public Future<Void> lookOnce(Instant now) {
    return lease.take(ADD_ALERT_LEASE, Tuple.tuple(), TAKE_ALERT_LEASE,
            owner -> Tuple.of(owner, LEASE.toSeconds(), owner))
        .compose(held -> {
          down.answered();
          if (held) {
            return look(now);
          }
          watches.forEach(Watch::forget); // another instance looks: what this one saw goes stale
          return Future.<Void>succeededFuture();
        })
        .timeout(LOOK_LIMIT.toMillis(), TimeUnit.MILLISECONDS) // a database that hangs is one that does not answer
        .recover(err -> {
          down.failing(err, now);
          return Future.succeededFuture();
        });
  }

  private Future<Void> look(Instant now) {
    Future<Void> all = Future.succeededFuture();
    for (Watch w : watches) {
      all = all.compose(v -> w.look(now));
    }
    return all;
  }
}
