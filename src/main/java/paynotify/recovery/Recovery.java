package paynotify.recovery;

import static paynotify.store.SqlQueries.ADD_ORDER_CHECK;
import static paynotify.store.SqlQueries.CLAIM_ORDER_CHECK;
import static paynotify.store.SqlQueries.LAST_ORDER_CHECK;
import static paynotify.store.SqlQueries.LEASE_ORDER_CHECK;
import static paynotify.store.SqlQueries.LEASE_ORDER_CHECK_FIRST;
import static paynotify.store.SqlQueries.ORDER_CHECKED;
import static paynotify.store.SqlQueries.ORDER_CHECK_ANSWERED;
import static paynotify.store.SqlQueries.ORDER_CHECK_ATTEMPTS;
import static paynotify.store.SqlQueries.ORDER_NOT_CHECKED;
import static paynotify.store.SqlQueries.PURGE_ORDER_CHECKS;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
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
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.EventBooking;
import paynotify.booking.Outcome;
import paynotify.booking.SiteEvents;
import paynotify.channel.Platform;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.recovery.CheckAnswer.State;
import paynotify.store.Database;
import paynotify.store.LeaseOwner;
import paynotify.store.NotifyLog;
import paynotify.store.OrdersTable.OrderStatus;
import paynotify.store.OrdersTable;
import paynotify.store.TransientRetry;

/**
 * Goes and gets what never arrived: asks the platforms about the site's unpaid orders whose notification
 * may have been lost, and books what they say was paid through the same booking as a notification
 * ({@link FoundPayment}). The sweeper takes due orders between min_age and max_age old, each with its own
 * back-off ({@link Backoff}) and a lease in order_checks, so several instances never ask about one order at
 * once; {@link #check} asks about one order now, for the site's return page. Both draw on one
 * {@link QueryBudget}. A platform that is down, slow or not believed costs that order a later try and nothing
 * else.
 */
public final class Recovery {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
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
  /** A check of an order asked about less than this ago is answered from that question. */
  private static final Duration CHECK_COOLDOWN = Duration.ofSeconds(15);
  /** How often a claim (a check's or the sweeper's) is tried when it loses a race to another transaction. */
  private static final int CLAIM_ATTEMPTS = 3;
  /** order_checks.last_state of a question no platform answered usably. */
  private static final String NO_ANSWER = "no answer";

  private final Database db;
  private final OrdersTable orders;
  private final EventBooking booking;
  private final List<TradeQuery> queries;
  private final RecoverySettings settings;
  private final FoundPayment found;
  private final MissedStripeEvents stripe;
  private final String owner;
  /** Every platform asked, a close and the question again, each up to the time limit, twice over. */
  private final Duration lease;
  private final String dueForCheck;
  private final String ageOf;
  private final QueryBudget budget;
  private final TransientRetry retry;
  /** Unpaid orders of these windows are each sweep's first, until each was asked about once ({@link #askFirst}). */
  private final Queue<Window> first = new ConcurrentLinkedQueue<>();
  /** The channel column's values whose platform cannot be asked: their orders are not asked about first. */
  private final List<String> unqueryable;
  private final String inWindowForCheck;
  private boolean sweeping;

  /**
   * @param db      a pool of recovery's own (READ COMMITTED): a slow platform never holds a booking's connection
   * @param queries the platforms that can be asked, in the order they are tried for an order of unknown platform
   * @param stripe  Stripe's undelivered events, fetched every sweep; null when stripe.api_key_file is not set
   */
  public Recovery(Vertx vertx, Database db, EventBooking booking, NotifyLog log, OrdersTable orders,
      SiteEvents outbox, List<TradeQuery> queries, StripeFeed stripe, RecoverySettings settings) {
    this.db = db;
    this.orders = orders;
    this.booking = booking;
    this.queries = List.copyOf(queries);
    this.settings = settings;
    this.found = new FoundPayment(FoundBy.QUERY, booking, log, db, outbox, orders, settings.createdAt());
    Duration longest = settings.timeout().multipliedBy(2L * (queries.size() + 2));
    this.lease = longest.compareTo(MIN_LEASE) > 0 ? longest : MIN_LEASE;
    this.stripe = stripe == null ? null
        : new MissedStripeEvents(stripe, found, booking, settings.maxAge(), Clock.systemUTC());
    this.owner = LeaseOwner.next();
    // Without a creation column no order is due (the configuration refuses the sweeper) nor of a known age
    this.dueForCheck = settings.createdAt() == null ? null : orders.dueForCheck(settings.createdAt());
    this.ageOf = orders.ageOf(settings.createdAt());
    Set<Platform> asked = this.queries.stream().map(TradeQuery::platform).collect(Collectors.toSet());
    this.unqueryable = orders.columns().channel() == null ? List.of() : settings.platformOf().entrySet().stream()
        .filter(e -> !asked.contains(e.getValue())).map(Map.Entry::getKey).sorted().toList();
    this.inWindowForCheck = settings.createdAt() == null ? null
        : orders.inWindowForCheck(settings.createdAt(), unqueryable.size());
    this.budget = new QueryBudget(settings.queriesPerMinute());
    this.retry = new TransientRetry(vertx, CLAIM_ATTEMPTS);
  }

  /** Whether the sweeper runs (recovery.enabled); {@link #check} works either way. */
  public boolean sweeps() {
    return settings.enabled();
  }

  /** What one sweep did. */
  public record Sweep(int asked, int paid, int closed, int failed) {}

  /** Sweeps every {@code settings.interval()}; a sweep still going when the next is due is not overlapped. */
  public long schedule(Vertx vertx) {
    return vertx.setPeriodic(settings.interval().toMillis(), id -> {
      if (sweeping) {
        return;
      }
      sweeping = true;
      sweepOnce().compose(s -> fetchStripeEvents().map(s)).onComplete(done -> {
        sweeping = false;
        if (done.failed()) {
          LOG.warn("recovery sweep failed, will try again in {} s: {}", settings.interval().toSeconds(),
              done.cause().getMessage());
        } else if (done.result().asked() > 0) {
          Sweep s = done.result();
          LOG.info("recovery: asked about {} unpaid order(s): {} found paid, {} closed, {} not answered", s.asked(),
              s.paid(), s.closed(), s.failed());
        }
      });
    });
  }

  /**
   * Stripe's events whose delivery failed, created within max_age, booked as their webhooks would have been:
   * the number booked now. Nothing without stripe.api_key_file; Stripe unreachable is logged, not a failure.
   */
  public Future<Integer> fetchStripeEvents() {
    if (stripe == null) {
      return Future.succeededFuture(0);
    }
    return stripe.sweep().map(pass -> {
      if (pass.read() > 0) {
        LOG.info("recovery: {} undelivered Stripe event(s) read, {} booked now, {} left for the next sweep",
            pass.read(), pass.booked(), pass.failed());
      }
      return pass.booked();
    }).otherwise(err -> {
      LOG.warn("recovery: Stripe's undelivered events not fetched, tried again next sweep: {}", err.toString());
      return 0;
    });
  }

  /**
   * A window the database refused writes in: notifications of its orders may have been answered failure, and a
   * platform that does not deliver again (or not soon) leaves them unpaid. So its unpaid orders that a platform
   * can be asked about are the first of the next sweeps, each asked once whatever its back-off says (then it goes
   * back to its back-off), newest first. Nothing when the sweeper is off (then nothing would take the window).
   *
   * @param from the first refusal less a little (an order made just before may be paid in it)
   * @param to   the last refusal
   */
  public void askFirst(Instant from, Instant to) {
    if (settings.enabled() && inWindowForCheck != null && !queries.isEmpty()) {
      first.add(new Window(utc(from), utc(to), utc(Instant.now())));
    }
  }

  /**
   * A window given to {@link #askFirst}, in UTC; {@code given}: when, by this machine's clock (an order asked
   * since, by the database's, is not asked first again; a clock a few seconds off asks one order once more, or
   * not first).
   */
  private record Window(LocalDateTime from, LocalDateTime to, LocalDateTime given) {}

  /** An order a sweep asks about; {@code askedFirstSince}: one of a window's, given then (null: one due). */
  private record Due(String orderNo, String channel, boolean closeDue, LocalDateTime askedFirstSince) {}

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
    return new Due(row.getString(0), channel, closeDue, askedFirstSince);
  }

  private static LocalDateTime utc(Instant t) {
    return LocalDateTime.ofInstant(t, ZoneOffset.UTC);
  }

  /**
   * One sweep: the orders of the windows given to {@link #askFirst}, then the due orders, up to the rate cap, one
   * after the other; younger and older than an hour in turn, each the longest overdue first.
   */
  public Future<Sweep> sweepOnce() {
    if (queries.isEmpty()) { // Stripe's events alone: no order to ask about
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
            sweep = sweep.compose(s -> !budget.takeForSweep() ? Future.succeededFuture(s)
                : claimAndAsk(due).map(r -> {
                  if (r == null) { // not asked: the question stays in the budget
                    budget.putBack();
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
   * What asking about one order came to: null state when no platform answered usably; {@code ours} when that
   * was a failure of ours, not the platform's.
   */
  private record Asked(State state, String platformStatus, String detail, boolean done, boolean ours) {
    Asked(State state, String platformStatus, String detail, boolean done) {
      this(state, platformStatus, detail, done, false);
    }

    /** As order_checks.last_state keeps it (64 characters: a platform's word longer than that is cut). */
    String lastState() {
      return state == null ? NO_ANSWER : platformStatus == null || platformStatus.length() <= 64 ? platformStatus
          : platformStatus.substring(0, 64);
    }
  }

  /** Null when another instance holds the order now (or, one due, it is not due any more). */
  private Future<Asked> claimAndAsk(Due due) {
    String orderNo = due.orderNo();
    Tuple claim = due.askedFirstSince() == null ? Tuple.of(owner, lease.toSeconds(), orderNo)
        : Tuple.of(owner, lease.toSeconds(), orderNo, due.askedFirstSince());
    // two transactions, as a check's claim: two instances sweeping at once would deadlock on the INSERT
    // IGNOREs' share locks; the loser of any race is run again, so the rest of its sweep goes on
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(ADD_ORDER_CHECK).execute(Tuple.of(orderNo))))
        .compose(added -> retry.run(() -> db.inTransaction(conn -> conn
            .preparedQuery(due.askedFirstSince() == null ? LEASE_ORDER_CHECK : LEASE_ORDER_CHECK_FIRST).execute(claim)
            .compose(leased -> leased.rowCount() != 1 ? Future.succeededFuture((Integer) null)
                : conn.preparedQuery(ORDER_CHECK_ATTEMPTS).execute(Tuple.of(orderNo))
                    .map(rows -> rows.iterator().next().getInteger(0))))))
        .compose(attempts -> attempts == null ? Future.succeededFuture(null)
            : ask(new Question(orderNo, platformOf(due.channel()), due.closeDue(), true)).compose(asked -> retry.run(() ->
                    db.inTransaction(conn -> asked.ours() ? conn.preparedQuery(ORDER_NOT_CHECKED)
                        .execute(Tuple.of(Backoff.after(0).toSeconds(), orderNo, owner))
                    : conn.preparedQuery(ORDER_CHECKED).execute(Tuple.of(asked.lastState(),
                        Backoff.after(attempts).toSeconds(), asked.done(), orderNo, owner))))
                .map(asked)));
  }

  /**
   * Whether a question failed on our side, not the platform's: the HTTP client's wait queue full, or our time
   * limit cut it. The order's back-off stays as it was: it was not the platform that gave no answer.
   */
  private static boolean ours(Throwable err) {
    for (Throwable t = err; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException || t instanceof ConnectionPoolTooBusyException) {
        return true;
      }
    }
    return false;
  }

  /**
   * One question about an order (one within max_age: a payment found may be booked): its number, the platform
   * its channel column names (null: not said), whether it is unpaid past close_after, and
   * whether a payment found is evidence that its notification went missing (the order is older than min_age).
   */
  private record Question(String orderNo, Platform platform, boolean closeDue, boolean evidence) {}

  /** A platform's answer, or why it gave none. */
  private record Answered(TradeQuery query, TradeAnswer answer, Throwable failure) {
    /** The answer says {@code state}, and is signed: an unsigned one (epay's) decides nothing by itself. */
    boolean says(TradeAnswer.State state) {
      return is(state) && query.books();
    }

    boolean is(TradeAnswer.State state) {
      return answer != null && answer.state() == state;
    }
  }

  /**
   * Asks the order's platform, or, when the site does not say which, every platform that can be asked until
   * one says paid in a signed answer (another platform's "waiting", "closed" or "refunded", or an unsigned
   * "paid", says nothing of the one the buyer used); books a payment found; closes an order left unpaid past
   * close_after at its platform, then in the table.
   */
  private Future<Asked> ask(Question q) {
    List<TradeQuery> asked = q.platform() == null ? queries
        : queries.stream().filter(c -> c.platform() == q.platform()).limit(1).toList();
    if (asked.isEmpty()) {
      return Future.succeededFuture(new Asked(null, null, "no platform that can be asked is the order's ("
          + (q.platform() == null ? "none configured" : q.platform().code()) + ")", false));
    }
    Future<List<Answered>> answers = Future.succeededFuture(List.of());
    for (TradeQuery query : asked) {
      answers = answers.compose(before -> before.stream().anyMatch(a -> a.says(TradeAnswer.State.PAID))
          ? Future.succeededFuture(before)
          : query.query(orders.numbers().toPlatform(q.orderNo())).map(a -> new Answered(query, a, null))
              .otherwise(err -> new Answered(query, null, err))
              .map(a -> Stream.concat(before.stream(), Stream.of(a)).toList()));
    }
    return answers.compose(list -> decide(q, list)).recover(err -> {
      String why = err instanceof OutboundFailure f ? f.toString() : err.toString();
      if (err instanceof OutboundFailure f && f.kind() == OutboundFailure.Kind.UNAVAILABLE) {
        LOG.info("recovery: order {} not answered, asked again later: {}", q.orderNo(), why);
      } else {
        LOG.warn("recovery: order {}: nothing booked: {}", q.orderNo(), why);
      }
      return Future.succeededFuture(new Asked(null, null, why, false, ours(err)));
    });
  }

  /**
   * A payment found in a signed answer wins; else a platform that gave no answer makes it a later try; else a
   * payment refunded since, or one an unsigned answer reports, is an anomaly for a human; else the order is
   * closed only when every platform asked says closed in a signed answer, and waits otherwise (on a trade that
   * exists, if any does).
   */
  private Future<Asked> decide(Question q, List<Answered> list) {
    Answered paid = first(list, a -> a.says(TradeAnswer.State.PAID));
    if (paid != null) {
      return act(q, paid);
    }
    Answered failed = first(list, a -> a.failure() != null);
    if (failed != null) {
      return Future.failedFuture(failed.failure());
    }
    Answered refunded = first(list, a -> a.says(TradeAnswer.State.REFUNDED));
    Answered toCheck = refunded != null ? refunded
        : first(list, a -> a.is(TradeAnswer.State.PAID) || a.is(TradeAnswer.State.REFUNDED));
    if (toCheck != null) {
      return act(q, toCheck);
    }
    if (list.stream().allMatch(a -> a.says(TradeAnswer.State.CLOSED))) {
      return act(q, list.get(0));
    }
    return act(q, list.stream().filter(a -> a.is(TradeAnswer.State.WAITING)).findFirst()
        .orElse(list.stream().filter(a -> !a.says(TradeAnswer.State.CLOSED)).findFirst().orElseThrow()));
  }

  private static Answered first(List<Answered> list, Predicate<Answered> which) {
    return list.stream().filter(which).findFirst().orElse(null);
  }

  private Future<Asked> act(Question q, Answered a) {
    TradeAnswer answer = a.answer();
    String said = a.query().name() + " says " + answer.platformStatus();
    boolean signed = a.query().books();
    return switch (answer.state()) {
      case PAID -> {
        // asked again at its back-off: an unsigned answer ends nothing (its anomaly is recorded once)
        if (!signed) {
          yield found.unsigned(a.query(), answer).map(new Asked(State.UNPAID, answer.platformStatus(), said
              + ", but its answer is not signed: not booked, recorded as an anomaly to check", false));
        }
        yield found.book(a.query().name(), answer.payment(), answer.body(), q.evidence()).map(result ->
            result.outcome() == Outcome.IGNORED // paid before the order existed: another order's, for a human
                ? new Asked(State.UNPAID, answer.platformStatus(), said + ": " + result.detail(), true)
                : new Asked(State.PAID, answer.platformStatus(), said + ": " + result.outcome().code() + ": "
                    + result.detail(), true));
      }
      // whatever its age: never booked, one anomaly; the platform will say no more of it
      case REFUNDED -> found.refunded(a.query(), answer).map(new Asked(State.UNPAID, answer.platformStatus(), said
          + ": paid, then refunded at the platform: not booked, recorded as an anomaly to check before delivering",
          signed));
      // an unsigned "closed" (epay's "refunded") could be anyone's word: the order is left as it is
      case CLOSED -> !signed ? Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said
          + ", but its answer is not signed: the order is left as it is", false))
          // closed at the platform: nothing can be paid on it; past close_after, closed in the table too
          : q.closeDue() && q.platform() != null ? closeInTable(q.orderNo(), a, "closed at "
          + a.query().platform().code() + " already")
          : Future.succeededFuture(new Asked(State.CLOSED, answer.platformStatus(), said, true));
      // only a trade that exists is closed: with none (a cashier page not opened yet), the buyer can still pay
      case WAITING -> q.closeDue() && q.platform() != null && a.query().closes() ? closeExpired(q, a)
          : Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said, false));
      case NOT_FOUND -> Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said, false));
    };
  }

  /**
   * Unpaid past close_after: closed at the platform first (so no late payment can land on it), then in the
   * site's table. A platform that will not close it because it was paid meanwhile is asked again at once.
   */
  private Future<Asked> closeExpired(Question q, Answered a) {
    TradeQuery query = a.query();
    return query.close(orders.numbers().toPlatform(q.orderNo()))
        .compose(v -> closeInTable(q.orderNo(), a, "closed at " + query.platform().code()),
            err -> query.query(orders.numbers().toPlatform(q.orderNo())).compose(again -> again.payment() != null
                ? act(new Question(q.orderNo(), q.platform(), false, q.evidence()),
                    new Answered(query, again, null))
                : Future.failedFuture(err)));
  }

  /** Unpaid -> closed in the site's table (only from unpaid), the site told order.closed. */
  private Future<Asked> closeInTable(String orderNo, Answered a, String how) {
    return booking.closeExpired(a.query().platform(), orderNo, a.answer().platformStatus())
        .map(moved -> {
          LOG.info("recovery: order {} unpaid past recovery.close_unpaid_after_minutes: {}{}", orderNo, how,
              moved ? " and in the orders table" : " (the order had moved meanwhile)");
          return new Asked(State.CLOSED, a.answer().platformStatus(), how + " after recovery.close_unpaid_after_minutes",
              true);
        });
  }

  /**
   * The platform an order is, by its channel column's {@code value}: the value's meaning, or, where the
   * column says nothing, the one platform the site takes notifications of; null when it cannot be told.
   */
  private Platform platformOf(String value) {
    Platform platform = value == null ? null : settings.platformOf().get(value);
    return platform != null ? platform : settings.onlyPlatform();
  }

  /**
   * Asks about one order now and books what is found: the order's state once that is done. Answered from the
   * site's table without asking: an order that is not unpaid, one older than max_age (nothing found would be
   * booked automatically), one asked about less than {@link #CHECK_COOLDOWN} ago (by a check or the sweeper,
   * any instance: answered from that question), and any while the checks' share of the budget is spent.
   */
  public Future<CheckAnswer> check(String orderNo) {
    return db.inTransaction(conn -> conn.preparedQuery(ageOf).execute(Tuple.of(orderNo, orderNo))
            .compose(age -> age.size() == 0 ? Future.succeededFuture(null)
                : orders.find(conn, orderNo, false).map(order -> new Found(order.status(),
                    order.paidByChannel(), age.iterator().next().getLong(0)))))
        .compose(order -> {
          if (order == null) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNKNOWN, null, "no such order"));
          }
          if (order.status() != OrderStatus.UNPAID) {
            return Future.succeededFuture(new CheckAnswer(orderNo, stateOf(order.status()), null,
                "not asked: the order is not unpaid"));
          }
          if (queries.isEmpty()) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null,
                "no platform can be asked: see docs/operations.md, recovery"));
          }
          if (order.ageSeconds() == null) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null, "not asked: the order's age"
                + " is not known (no orders.columns.created_at, or none on this order), so a payment found could not"
                + " be told from another order's of the same number and would not be booked: look it up at the"
                + " platform, then paynotify repair book"));
          }
          if (order.ageSeconds() > settings.maxAge().toSeconds()) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null, "not asked: the order is"
                + " older than recovery.max_age_hours, and a payment found would not be booked automatically: look"
                + " it up at the platform, then paynotify repair book"));
          }
          if (!budget.takeForCheck()) {
            return Future.succeededFuture(new CheckAnswer(orderNo, State.UNPAID, null, "not asked now: checks have"
                + " spent their share of recovery.max_queries_per_minute; ask again in a few seconds"));
          }
          // two transactions: INSERT IGNORE share-locks the row it finds, and two checks each holding that lock
          // while waiting to UPDATE would deadlock; each run again when it loses a race all the same (a deadlock
          // on Galera's certification, a lock waited out), so that the return page gets its answer
          return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(ADD_ORDER_CHECK)
                  .execute(Tuple.of(orderNo))))
              .compose(added -> retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(CLAIM_ORDER_CHECK)
                  .execute(Tuple.of(orderNo, CHECK_COOLDOWN.toSeconds())))))
              .compose(claimed -> {
                if (claimed.rowCount() == 1) {
                  return askNow(orderNo, order);
                }
                budget.putBack();
                return lastQuestion(orderNo);
              });
        });
  }

  /** The check's question; what it heard kept for the cooldown; the order's state in the table after. */
  private Future<CheckAnswer> askNow(String orderNo, Found order) {
    // the return page asks right after paying, before the notification could come: no evidence then
    boolean evidence = order.ageSeconds() >= settings.minAge().toSeconds();
    return ask(new Question(orderNo, platformOf(order.channel()), false, evidence)).compose(asked -> db
            .inTransaction(conn -> conn.preparedQuery(ORDER_CHECK_ANSWERED).execute(Tuple.of(asked.lastState(), orderNo))
                .compose(written -> orders.find(conn, orderNo, false)))
        .map(after -> new CheckAnswer(orderNo, stateOf(after == null ? null : after.status()), asked.platformStatus(),
            asked.detail())));
  }

  /** An unpaid order asked about within the cooldown, answered from that question. */
  private Future<CheckAnswer> lastQuestion(String orderNo) {
    return db.inTransaction(conn -> conn.preparedQuery(LAST_ORDER_CHECK).execute(Tuple.of(orderNo))).map(rows -> {
      Row last = rows.iterator().next();
      String said = NO_ANSWER.equals(last.getString(0)) ? null : last.getString(0);
      String detail = Integer.valueOf(1).equals(last.getInteger(2)) ? "not asked now: the sweeper is asking about it"
          : "not asked now: asked " + last.getLong(1) + " s ago (at most once every " + CHECK_COOLDOWN.toSeconds()
              + " s), " + (said == null ? "no answer yet" : "the platform said " + said);
      return new CheckAnswer(orderNo, State.UNPAID, said, detail);
    });
  }

  private record Found(OrderStatus status, String channel, Long ageSeconds) {}

  private static State stateOf(OrderStatus status) {
    if (status == null) {
      return State.UNKNOWN;
    }
    return switch (status) {
      case PAID -> State.PAID;
      case PARTIALLY_REFUNDED -> State.PARTIALLY_REFUNDED;
      case REFUNDED -> State.REFUNDED;
      case UNPAID -> State.UNPAID;
      case CLOSED -> State.CLOSED;
    };
  }

  /** The platforms this instance can ask, by name (status page, start log). */
  public List<String> clients() {
    List<String> names = new ArrayList<>(queries.stream().map(TradeQuery::name).toList());
    if (stripe != null) {
      names.add(MissedStripeEvents.SOURCE);
    }
    return names;
  }

  /** For the start log: which platforms are asked, and how often. */
  @Override
  public String toString() {
    return "recovery " + (settings.enabled() ? "every " + settings.interval().toSeconds() + " s" : "on demand only")
        + " asking " + clients() + (settings.closeAfter() == null ? ""
        : ", closing orders unpaid after " + settings.closeAfter().toMinutes() + " min");
  }
}
