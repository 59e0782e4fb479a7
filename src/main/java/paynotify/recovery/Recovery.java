package paynotify.recovery;

import static paynotify.store.SqlQueries.ADD_ORDER_CHECK;
import static paynotify.store.SqlQueries.LEASE_ORDER_CHECK;
import static paynotify.store.SqlQueries.ORDER_CHECKED;
import static paynotify.store.SqlQueries.ORDER_CHECK_ATTEMPTS;
import static paynotify.store.SqlQueries.PURGE_ORDER_CHECKS;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.EventBooking;
import paynotify.booking.SiteEvents;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.gateway.GatewayFailure;
import paynotify.gateway.TradeAnswer;
import paynotify.gateway.TradeQuery;
import paynotify.recovery.CheckAnswer.State;
import paynotify.store.Database;
import paynotify.store.NotifyLog;
import paynotify.store.OrdersTable;
import paynotify.store.OrdersTable.OrderStatus;

/**
 * Goes and gets what never arrived: asks the platforms about the site's unpaid orders whose notification
 * may have been lost, and books what they say was paid through the same booking as a notification
 * ({@link FoundPayment}). The sweeper takes due orders between min_age and max_age old, each with its own
 * back-off ({@link Backoff}) and a lease in order_checks, so several instances never ask about one order at
 * once; {@link #check} asks about one order now, for the site's return page. A platform that is down, slow
 * or not believed costs that order a later try and nothing else.
 */
public final class Recovery {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
  /** How long a claimed order is this instance's: the questions and the booking, with room to spare. */
  private static final Duration LEASE = Duration.ofMinutes(2);
  private static final int PURGE_BATCH = 1000;
  /** order_checks rows are kept a day past max_age: the ages of the orders they are about. */
  private static final Duration KEPT_PAST_MAX_AGE = Duration.ofDays(1);

  private final Database db;
  private final OrdersTable orders;
  private final SiteEvents outbox;
  private final List<TradeQuery> queries;
  private final RecoverySettings settings;
  private final FoundPayment found;
  private final MissedStripeEvents stripe;
  private final String owner;
  private final String dueForCheck;
  private final String ageOf;
  private boolean sweeping;

  /**
   * @param db      a pool of recovery's own (READ COMMITTED): a slow platform never holds a booking's connection
   * @param queries the platforms that can be asked, in the order they are tried for an order of unknown platform
   * @param stripe  Stripe's undelivered events, fetched every sweep; null when stripe.api_key_file is not set
   */
  public Recovery(Database db, EventBooking booking, NotifyLog log, OrdersTable orders, SiteEvents outbox,
      List<TradeQuery> queries, StripeFeed stripe, RecoverySettings settings) {
    this.db = db;
    this.orders = orders;
    this.outbox = outbox;
    this.queries = List.copyOf(queries);
    this.settings = settings;
    this.found = new FoundPayment(booking, log, db, outbox);
    this.stripe = stripe == null ? null
        : new MissedStripeEvents(stripe, found, booking, settings.maxAge(), Clock.systemUTC());
    this.owner = ManagementFactory.getRuntimeMXBean().getName() + ":" + UUID.randomUUID().toString().substring(0, 8);
    this.dueForCheck = orders.dueForCheck(settings.createdAt());
    this.ageOf = orders.ageOf(settings.createdAt());
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

  /** One sweep: the due orders, up to the rate cap, one after the other. */
  public Future<Sweep> sweepOnce() {
    // Without close_after, an age no order asked about reaches (they are all younger than max_age)
    long closeAfter = (settings.closeAfter() == null ? settings.maxAge().plus(KEPT_PAST_MAX_AGE)
        : settings.closeAfter()).toSeconds();
    Tuple due = Tuple.of(closeAfter, orders.values().unpaid(), settings.minAge().toSeconds(),
        settings.maxAge().toSeconds(), settings.perSweep());
    return db.inTransaction(conn -> conn.preparedQuery(PURGE_ORDER_CHECKS)
            .execute(Tuple.of(settings.maxAge().plus(KEPT_PAST_MAX_AGE).toSeconds(), PURGE_BATCH))
            .compose(purged -> conn.preparedQuery(dueForCheck).execute(due)))
        .compose(rows -> {
          List<Row> list = new ArrayList<>();
          rows.forEach(list::add);
          Future<Sweep> sweep = Future.succeededFuture(new Sweep(0, 0, 0, 0));
          for (Row row : list) {
            String orderNo = row.getString(0);
            String channel = row.getValue(1) == null ? null : String.valueOf(row.getValue(1));
            boolean closeDue = settings.closeAfter() != null && row.getValue(2) != null && row.getInteger(2) == 1;
            sweep = sweep.compose(s -> claimAndAsk(orderNo, channel, closeDue).map(r -> tally(s, r)));
          }
          return sweep;
        });
  }

  private static Sweep tally(Sweep s, Asked r) {
    if (r == null) { // held by another instance
      return s;
    }
    return new Sweep(s.asked() + 1, s.paid() + (r.state() == State.PAID ? 1 : 0),
        s.closed() + (r.state() == State.CLOSED ? 1 : 0), s.failed() + (r.state() == null ? 1 : 0));
  }

  /** What asking about one order came to: null state when no platform answered usably. */
  private record Asked(State state, String platformStatus, String detail, boolean done) {}

  /** Null when another instance holds the order now. */
  private Future<Asked> claimAndAsk(String orderNo, String channel, boolean closeDue) {
    return db.inTransaction(conn -> conn.preparedQuery(ADD_ORDER_CHECK).execute(Tuple.of(orderNo))
            .compose(added -> conn.preparedQuery(LEASE_ORDER_CHECK).execute(Tuple.of(owner, LEASE.toSeconds(), orderNo)))
            .compose(leased -> leased.rowCount() != 1 ? Future.succeededFuture((Integer) null)
                : conn.preparedQuery(ORDER_CHECK_ATTEMPTS).execute(Tuple.of(orderNo))
                    .map(rows -> rows.iterator().next().getInteger(0))))
        .compose(attempts -> attempts == null ? Future.succeededFuture(null)
            : ask(orderNo, channel, true, closeDue).compose(asked -> db.inTransaction(conn -> conn
                    .preparedQuery(ORDER_CHECKED)
                    .execute(Tuple.of(asked.state() == null ? "no answer" : asked.platformStatus(),
                        Backoff.after(attempts).toSeconds(), asked.done(), orderNo, owner)))
                .map(asked)));
  }

  /**
   * Asks the order's platform (every platform that can be asked, while they know no such trade, when the
   * site does not say which); books a payment found (within max_age only: {@code bookable}); closes an
   * order left unpaid past close_after ({@code closeDue}).
   */
  private Future<Asked> ask(String orderNo, String channel, boolean bookable, boolean closeDue) {
    List<TradeQuery> asked = platformsFor(channel);
    if (asked.isEmpty()) {
      return Future.succeededFuture(new Asked(null, null, "no platform that can be asked is the order's ("
          + channel + "): see recovery.channel_values", false));
    }
    Future<Answered> answer = Future.succeededFuture(null);
    for (TradeQuery query : asked) {
      answer = answer.compose(before -> before != null && before.answer().state() != TradeAnswer.State.NOT_FOUND
          ? Future.succeededFuture(before)
          : query.query(orderNo).map(a -> new Answered(query, a)));
    }
    return answer.compose(a -> act(orderNo, a, bookable, closeDue)).recover(err -> {
      String why = err instanceof GatewayFailure f ? f.toString() : err.toString();
      if (err instanceof GatewayFailure f && f.kind() == GatewayFailure.Kind.UNAVAILABLE) {
        LOG.info("recovery: order {} not answered, asked again later: {}", orderNo, why);
      } else {
        LOG.warn("recovery: order {}: nothing booked: {}", orderNo, why);
      }
      return Future.succeededFuture(new Asked(null, null, why, false));
    });
  }

  private record Answered(TradeQuery query, TradeAnswer answer) {}

  private Future<Asked> act(String orderNo, Answered a, boolean bookable, boolean closeDue) {
    TradeAnswer answer = a.answer();
    String said = a.query().name() + " says " + answer.platformStatus();
    return switch (answer.state()) {
      case PAID -> {
        if (!bookable) {
          LOG.warn("recovery: order {} is paid at the platform ({}) but older than recovery.max_age_hours: not"
              + " booked automatically; check it, then paynotify repair book", orderNo, said);
          yield Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said + ", but the order is older"
              + " than recovery.max_age_hours: not booked automatically (check it, then paynotify repair book)", false));
        }
        if (!a.query().books()) {
          yield found.unsigned(a.query(), answer).map(new Asked(State.UNPAID, answer.platformStatus(), said
              + ", but its answer is not signed: not booked, recorded as an anomaly to check", true));
        }
        yield found.book(a.query().name(), answer.payment(), answer.body()).map(result -> new Asked(State.PAID, answer.platformStatus(),
            said + ": " + result.outcome().code() + ": " + result.detail(), true));
      }
      case CLOSED -> Future.succeededFuture(new Asked(State.CLOSED, answer.platformStatus(), said, true));
      case WAITING, NOT_FOUND -> closeDue && a.query().closes() ? closeExpired(orderNo, a)
          : Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said, false));
    };
  }

  /**
   * Unpaid past close_after: closed at the platform first (so no late payment can land on it), then in the
   * site's table (unpaid -> closed only), the site told order.closed.
   */
  private Future<Asked> closeExpired(String orderNo, Answered a) {
    TradeQuery query = a.query();
    NotifyEvent closed = new NotifyEvent(query.platform(), EventKind.CLOSE, orderNo, null, 0, null,
        a.answer().platformStatus());
    return query.close(orderNo)
        .compose(v -> db.inTransaction(conn -> orders.close(conn, orderNo)
            .compose(moved -> moved ? outbox.orderClosed(conn, closed).map(true) : Future.succeededFuture(false))))
        .map(moved -> {
          LOG.info("recovery: order {} unpaid past recovery.close_unpaid_after_minutes: closed at {}{}", orderNo,
              query.platform().code(), moved ? " and in the orders table" : " (the order had moved meanwhile)");
          return new Asked(State.CLOSED, a.answer().platformStatus(), "closed at " + query.platform().code()
              + " after recovery.close_unpaid_after_minutes", true);
        });
  }

  /** The platforms to ask about an order whose channel column holds {@code channel} (null: not said). */
  private List<TradeQuery> platformsFor(String channel) {
    Platform platform = channel == null ? null : settings.platformOf().get(channel);
    if (platform == null) {
      return queries;
    }
    return queries.stream().filter(q -> q.platform() == platform).limit(1).toList();
  }

  /**
   * Asks about one order now and books what is found: the order's state once that is done. An order that
   * is not unpaid is answered from the site's table without asking; one older than max_age is asked about
   * but not booked automatically.
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
          boolean bookable = order.ageSeconds() != null && order.ageSeconds() <= settings.maxAge().toSeconds();
          return ask(orderNo, order.channel(), bookable, false).compose(asked -> db.inTransaction(conn ->
                  orders.find(conn, orderNo, false))
              .map(after -> new CheckAnswer(orderNo, stateOf(after == null ? null : after.status()),
                  asked.platformStatus(), asked.detail())));
        });
  }

  private record Found(OrderStatus status, String channel, Long ageSeconds) {}

  private static State stateOf(OrderStatus status) {
    if (status == null) {
      return State.UNKNOWN;
    }
    return switch (status) {
      case PAID, PARTIALLY_REFUNDED, REFUNDED -> State.PAID;
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
