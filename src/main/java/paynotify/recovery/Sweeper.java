package paynotify.recovery;

import static paynotify.store.SqlQueries.ADD_ORDER_CHECK;
import static paynotify.store.SqlQueries.LEASE_ORDER_CHECK;
import static paynotify.store.SqlQueries.LEASE_ORDER_CHECK_FIRST;
import static paynotify.store.SqlQueries.ORDER_CHECKED;
import static paynotify.store.SqlQueries.ORDER_CHECK_ATTEMPTS;
import static paynotify.store.SqlQueries.ORDER_NOT_CHECKED;
import static paynotify.store.SqlQueries.PURGE_ORDER_CHECKS;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.recovery.Asking.Asked;
import paynotify.recovery.Asking.Question;
import paynotify.recovery.CheckAnswer.State;
import paynotify.store.Database;
import paynotify.store.Lease;
import paynotify.store.OrdersTable;
import paynotify.timer.Periodic;

/**
 * The sweeper: every recovery.interval, the site's unpaid orders whose notification may have been lost (between
 * min_age and max_age old, each at its own back-off, {@link Backoff}) asked about through {@link Asking}, up to the
 * budget's share, each held in order_checks while it is asked (a {@link Lease}: several instances never ask about
 * one order at once); the orders of the windows given to {@link #askFirst} first; then the platforms' lists
 * (Stripe's and Paddle's undelivered events, Lemon Squeezy's orders).
 */
public final class Sweeper {
  private static final Logger LOG = LoggerFactory.getLogger(Sweeper.class);
  /** How long a claimed order is this instance's at least: the questions and the booking, with room to spare. */
  private static final Duration MIN_LEASE = Duration.ofMinutes(2);
  private static final int PURGE_BATCH = 1000;
  /** order_checks rows are kept a day past max_age: the ages of the orders they are about. */
  private static final Duration KEPT_PAST_MAX_AGE = Duration.ofDays(1);
  /**
   * Orders this old are in their hourly re-asks: half of each sweep is theirs, so fresh unpaid orders, however
   * many anyone makes, cannot keep an older one from being asked on time.
   */
  private static final Duration HOURLY_PHASE = Duration.ofHours(1);

  private final Database db;
  private final OrdersTable orders;
  private final RecoverySettings settings;
  private final Asking asking;
  private final Lease checks;
  private final List<MissedEvents> missed;
  /** Every platform asked, a close and the question again, each up to the time limit, twice over. */
  private final Duration lease;
  private final String dueForCheck;
  /** Unpaid orders of these windows are each sweep's first, until each was asked about once ({@link #askFirst}). */
  private final Queue<Window> first = new ConcurrentLinkedQueue<>();
  /** The channel column's values whose platform cannot be asked: their orders are not asked about first. */
  private final List<String> unqueryable;
  private final String inWindowForCheck;

  /**
   * @param checks order_checks' lease, shared with the checks
   * @param missed the platforms' undelivered events, fetched every sweep: those whose API key is set
   */
  Sweeper(Database db, OrdersTable orders, RecoverySettings settings, Asking asking, Lease checks,
      List<MissedEvents> missed) {
    this.db = db;
    this.orders = orders;
    this.settings = settings;
    this.asking = asking;
    this.checks = checks;
    this.missed = missed;
    Duration longest = settings.timeout().multipliedBy(2L * (asking.queries().size() + 2));
    this.lease = longest.compareTo(MIN_LEASE) > 0 ? longest : MIN_LEASE;
    // Without a creation column no order is due (the configuration refuses the sweeper) nor of a known age
    this.dueForCheck = settings.createdAt() == null ? null : orders.dueForCheck(settings.createdAt());
    Set<Platform> asked = asking.queries().stream().map(TradeQuery::platform).collect(Collectors.toSet());
    this.unqueryable = orders.columns().channel() == null ? List.of() : settings.platformOf().entrySet().stream()
        .filter(e -> !asked.contains(e.getValue())).map(Map.Entry::getKey).sorted().toList();
    this.inWindowForCheck = settings.createdAt() == null ? null
        : orders.inWindowForCheck(settings.createdAt(), unqueryable.size());
  }

  /** What one sweep did. */
  public record Sweep(int asked, int paid, int closed, int failed) {}

  /** Sweeps every {@code settings.interval()}; a sweep still going when the next is due is not overlapped. */
  Periodic start(Vertx vertx) {
    return Periodic.every(vertx, settings.interval(), () -> sweepOnce().compose(s -> fetchMissedEvents().map(s))
        .onComplete(done -> {
          if (done.failed()) {
            LOG.warn("recovery sweep failed, will try again in {} s: {}", settings.interval().toSeconds(),
                done.cause().getMessage());
          } else if (done.result().asked() > 0) {
            Sweep s = done.result();
            LOG.info("recovery: asked about {} unpaid order(s): {} found paid, {} closed, {} not answered", s.asked(),
                s.paid(), s.closed(), s.failed());
          }
        }));
  }

  /**
   * The platforms' events whose delivery failed, made within max_age, booked as their webhooks would have been,
   * one platform after the other: the number booked now. Nothing without an API key (stripe.api_key_file,
   * paddle.api_key_file, lemonsqueezy.api_key_file); a platform unreachable or refusing the key is logged, not a
   * failure: asked again next sweep.
   */
  Future<Integer> fetchMissedEvents() {
    Future<Integer> booked = Future.succeededFuture(0);
    for (MissedEvents feed : missed) {
      booked = booked.compose(before -> feed.sweep().map(pass -> {
        if (pass.read() > 0) {
          LOG.info("recovery: {} new in {}, {} booked now, {} left for the next sweep",
              pass.read(), feed.source(), pass.booked(), pass.failed());
        }
        return before + pass.booked();
      }).otherwise(err -> {
        LOG.warn("recovery: {} not fetched, tried again next sweep: {}", feed.source(), err.toString());
        return before;
      }));
    }
    return booked;
  }

  /** The orders of a window the database refused writes in, asked about first: see {@link Recovery#askFirst}. */
  void askFirst(Instant from, Instant to) {
    if (settings.enabled() && inWindowForCheck != null && !asking.queries().isEmpty()) {
      first.add(new Window(utc(from), utc(to), utc(Instant.now())));
    }
  }

  /**
   * A window given to {@link #askFirst}, in UTC; {@code given}: when, by this machine's clock (an order asked
   * since, by the database's, is not asked first again; a clock a few seconds off asks one order once more, or
   * not first).
   */
  private record Window(LocalDateTime from, LocalDateTime to, LocalDateTime given) {}

  /**
   * An order a sweep asks about, with the platform's id of it the site keeps ({@code ref}, null: none);
   * {@code askedFirstSince}: one of a window's, given then (null: one due).
   */
  private record Due(String orderNo, String channel, boolean closeDue, String ref, LocalDateTime askedFirstSince) {}

  /** The windows' orders still to ask about first, up to a sweep's; a window with none left is done. */
  private Future<List<Due>> firstOfWindows(long closeAfter) {
    List<Due> due = new ArrayList<>();
    LocalDateTime past = utc(Instant.now().minus(settings.maxAge()));
    first.removeIf(w -> w.to().isBefore(past)); // none of its orders would be asked about any more
    Future<Void> all = Future.succeededFuture();
    for (Window w : first) {
      all = all.compose(v -> due.size() >= settings.perSweep() ? Future.succeededFuture() : db.inTransaction(conn -> {
        List<Object> args = new ArrayList<>(List.of(closeAfter, orders.values().unpaid(), w.from(), w.to(),
            settings.maxAge().toSeconds()));
        args.addAll(unqueryable);
        args.addAll(List.of(w.given(), settings.perSweep()));
        return conn.preparedQuery(inWindowForCheck).execute(Tuple.from(args));
      }).map(rows -> {
        if (rows.size() == 0) {
          first.remove(w);
        }
        rows.forEach(r -> due.add(due(r, w.given())));
        return (Void) null;
      }).otherwise(err -> { // the due orders' sweep goes on; the window is tried again next sweep
        LOG.warn("recovery: the orders made from {} to {} (UTC), when the database refused writes, not read now: {}",
            w.from(), w.to(), err.toString());
        return null;
      }));
    }
    return all.map(v -> due);
  }

  private Due due(Row row, LocalDateTime askedFirstSince) {
    String channel = row.getValue(1) == null ? null : String.valueOf(row.getValue(1));
    boolean closeDue = settings.closeAfter() != null && row.getValue(2) != null && row.getInteger(2) == 1;
    return new Due(row.getString(0), channel, closeDue, row.getString(3), askedFirstSince);
  }

  private static LocalDateTime utc(Instant t) {
    return LocalDateTime.ofInstant(t, ZoneOffset.UTC);
  }

  /**
   * One sweep: the orders of the windows given to {@link #askFirst}, then the due orders, up to the rate cap, one
   * after the other; younger and older than an hour in turn, each the longest overdue first.
   */
  Future<Sweep> sweepOnce() {
    if (asking.queries().isEmpty()) { // undelivered events alone: no order to ask about
      return Future.succeededFuture(new Sweep(0, 0, 0, 0));
    }
    // Without close_after, an age no order asked about reaches (they are all younger than max_age)
    long closeAfter = (settings.closeAfter() == null ? settings.maxAge().plus(KEPT_PAST_MAX_AGE)
        : settings.closeAfter()).toSeconds();
    long minAge = settings.minAge().toSeconds();
    long hourly = Math.max(minAge, HOURLY_PHASE.toSeconds());
    Tuple young = Tuple.of(closeAfter, orders.values().unpaid(), minAge, hourly, minAge, settings.perSweep());
    Tuple old = Tuple.of(closeAfter, orders.values().unpaid(), hourly, settings.maxAge().toSeconds(), minAge,
        settings.perSweep());
    return firstOfWindows(closeAfter).compose(firstDue -> db.inTransaction(conn -> conn
            .preparedQuery(PURGE_ORDER_CHECKS)
            .execute(Tuple.of(settings.maxAge().plus(KEPT_PAST_MAX_AGE).toSeconds(), PURGE_BATCH))
            .compose(purged -> conn.preparedQuery(dueForCheck).execute(young))
            .compose(y -> conn.preparedQuery(dueForCheck).execute(old).map(o -> {
              Map<String, Due> all = new LinkedHashMap<>(); // an order both first and due is asked once, first
              firstDue.forEach(d -> all.put(d.orderNo(), d));
              inTurn(y, o).forEach(r -> all.putIfAbsent(r.getString(0), due(r, null)));
              return new ArrayList<>(all.values());
            }))))
        .compose(list -> {
          Future<Sweep> sweep = Future.succeededFuture(new Sweep(0, 0, 0, 0));
          for (Due due : list.subList(0, Math.min(list.size(), settings.perSweep()))) {
            sweep = sweep.compose(s -> !asking.budget().takeForSweep() ? Future.succeededFuture(s)
                : claimAndAsk(due).map(r -> {
                  if (r == null) { // not asked: the question stays in the budget
                    asking.budget().putBack();
                  }
                  return tally(s, r);
                }));
          }
          return sweep;
        });
  }

  /** One of each in turn while both last, then the rest of the longer. */
  private static List<Row> inTurn(RowSet<Row> young, RowSet<Row> old) {
    List<Row> list = new ArrayList<>();
    Iterator<Row> y = young.iterator();
    Iterator<Row> o = old.iterator();
    while (y.hasNext() || o.hasNext()) {
      if (y.hasNext()) {
        list.add(y.next());
      }
      if (o.hasNext()) {
        list.add(o.next());
      }
    }
    return list;
  }

  private static Sweep tally(Sweep s, Asked r) {
    if (r == null) { // held by another instance
      return s;
    }
    return new Sweep(s.asked() + 1, s.paid() + (r.state() == State.PAID ? 1 : 0),
        s.closed() + (r.state() == State.CLOSED ? 1 : 0), s.failed() + (r.state() == null ? 1 : 0));
  }

  /**
   * Null when another instance holds the order now (or, one due, it is not due any more). Held, its back-off is
   * read (it changes only under the lease), it is asked about, and what was said is written while still held: a
   * failure of ours gives the lease back as if it had not been asked.
   */
  private Future<Asked> claimAndAsk(Due due) {
    String orderNo = due.orderNo();
    boolean askedFirst = due.askedFirstSince() != null;
    return checks.take(ADD_ORDER_CHECK, Tuple.of(orderNo), askedFirst ? LEASE_ORDER_CHECK_FIRST : LEASE_ORDER_CHECK,
            owner -> askedFirst ? Tuple.of(owner, lease.toSeconds(), orderNo, due.askedFirstSince())
                : Tuple.of(owner, lease.toSeconds(), orderNo))
        .compose(held -> !held ? Future.succeededFuture((Integer) null) : db.inTransaction(conn -> conn
            .preparedQuery(ORDER_CHECK_ATTEMPTS).execute(Tuple.of(orderNo))
            .map(rows -> rows.iterator().next().getInteger(0)))
            .recover(err -> giveBack(orderNo).transform(given -> Future.failedFuture(err))))
        .compose(attempts -> attempts == null ? Future.succeededFuture(null)
            : asking.ask(new Question(orderNo, asking.platformOf(due.channel()), due.ref(), due.closeDue(), true))
                .compose(asked -> (asked.ours() ? giveBack(orderNo) : checks.whileHeld(ORDER_CHECKED,
                    owner -> Tuple.of(asked.lastState(), Backoff.after(attempts).toSeconds(), asked.done(), orderNo,
                        owner)))
                    .map(asked)));
  }

  /**
   * The order's lease given back as if it had not been asked (a failure of ours, not the platform's answer): due
   * again at once, not held for the lease's minutes by a question that never went out.
   */
  private Future<Boolean> giveBack(String orderNo) {
    return checks.whileHeld(ORDER_NOT_CHECKED, owner -> Tuple.of(Backoff.after(0).toSeconds(), orderNo, owner));
  }
}
