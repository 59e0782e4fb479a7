package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.BookingResult;
import paynotify.booking.Outcome;
import paynotify.channel.Platform;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.recovery.CheckAnswer.State;
import paynotify.store.OrdersTable;

/**
 * The policy of asking the platforms about one order, for the sweeper and a check alike: which platforms are asked,
 * what their answers together decide ({@link #decide}), and what is done about it: a payment found booked
 * ({@link FoundPayment}), an order unpaid past close_after closed ({@link OrderExpiry}), anything a human must see
 * an anomaly. A platform that is down, slow or not believed costs that order a later try and nothing else. How
 * many questions may be asked is its {@link QueryBudget}'s.
 */
final class Asking {
  private static final Logger LOG = LoggerFactory.getLogger(Asking.class);
  /** order_checks.last_state of a question no platform answered usably. */
  static final String NO_ANSWER = "no answer";
  /**
   * The waiting trades of one order a platform asked by its own id only is asked about, newest first: one per coin
   * or per expired attempt at TokenPay, so a few at most.
   */
  private static final int WAITING_TRADES_ASKED = 3;

  private final List<TradeQuery> queries;
  private final OrdersTable orders;
  private final RecoverySettings settings;
  private final FoundPayment found;
  private final OrderExpiry expiry;
  private final QueryBudget budget;

  /** @param queries the platforms that can be asked, in the order they are tried for an order of unknown platform */
  Asking(List<TradeQuery> queries, OrdersTable orders, RecoverySettings settings, FoundPayment found,
      OrderExpiry expiry) {
    this.queries = List.copyOf(queries);
    this.orders = orders;
    this.settings = settings;
    this.found = found;
    this.expiry = expiry;
    this.budget = new QueryBudget(settings.queriesPerMinute());
  }

  /** The platforms that can be asked. */
  List<TradeQuery> queries() {
    return queries;
  }

  /** The questions a minute this instance may ask, the sweeper's and the checks' (one budget for both). */
  QueryBudget budget() {
    return budget;
  }

  /**
   * One question about an order (one within max_age: a payment found may be booked): its number, the platform
   * its channel column names (null: not said), the platform's id of it the site keeps (orders.columns.platform_ref,
   * null: none, as is a blank one; kept without the spaces around it), whether it is unpaid past close_after, and
   * whether a payment found is evidence that its notification went missing (the order is older than min_age).
   */
  record Question(String orderNo, Platform platform, String ref, boolean closeDue, boolean evidence) {
    Question {
      ref = ref == null || ref.isBlank() ? null : ref.strip();
    }
  }

  /** A platform's answer, or why it gave none. */
  record Answered(TradeQuery query, TradeAnswer answer, Throwable failure) {
    /** The answer says {@code state}, and is signed: an unsigned one (epay's) decides nothing by itself. */
    boolean says(TradeAnswer.State state) {
      return is(state) && query.books();
    }

    boolean is(TradeAnswer.State state) {
      return answer != null && answer.state() == state;
    }
  }

  /**
   * What asking about one order came to: null state when no platform answered usably; {@code ours} when that
   * was a failure of ours, not the platform's.
   */
  record Asked(State state, String platformStatus, String detail, boolean done, boolean ours) {
    Asked(State state, String platformStatus, String detail, boolean done) {
      this(state, platformStatus, detail, done, false);
    }

    /** As order_checks.last_state keeps it (64 characters: a platform's word longer than that is cut). */
    String lastState() {
      return state == null ? NO_ANSWER : platformStatus == null || platformStatus.length() <= 64 ? platformStatus
          : platformStatus.substring(0, 64);
    }
  }

  /**
   * The platform an order is, by its channel column's {@code value}: the value's meaning, or, where the
   * column says nothing, the one platform the site takes notifications of; null when it cannot be told.
   */
  Platform platformOf(String value) {
    Platform platform = value == null ? null : settings.platformOf().get(value);
    return platform != null ? platform : settings.onlyPlatform();
  }

  /**
   * Asks the order's platform, or, when the site does not say which, every platform that can be asked until
   * one says paid in a signed answer (another platform's "waiting", "closed" or "refunded", or an unsigned
   * "paid", says nothing of the one the buyer used); books a payment found; closes an order left unpaid past
   * close_after at its platform, then in the table. A platform asked by its own id only is asked about the trades
   * of the order whose signed notifications wait for it, and the id the site keeps (platform_ref), nothing else.
   */
  Future<Asked> ask(Question q) {
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
          : answers(query, q).map(a -> Stream.concat(before.stream(), a.stream()).toList()));
    }
    return answers.compose(list -> list.isEmpty() ? Future.succeededFuture(new Asked(null, null, "not asked: "
        + asked.stream().map(TradeQuery::name).toList() + " asked by its own id only, and order " + q.orderNo()
        + " has none: no notification of it waits for confirmation, and orders.columns.platform_ref is "
        + (orders.columns().platformRef() == null ? "not mapped" : "empty or another platform's id"), false))
        : decide(q, list))
        .recover(err -> {
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
   * What {@code query} says of the site's order: asked by the order's number; or, a platform asked by its own id only
   * (TokenPay, Creem, Lemon Squeezy), about the id the site keeps in orders.columns.platform_ref, and each trade
   * whose signed notification of the order waits for its confirmation (none of them: not asked at all, as the
   * order's number alone cannot be asked about).
   */
  private Future<List<Answered>> answers(TradeQuery query, Question q) {
    String number = orders.numbers().toPlatform(q.orderNo());
    if (!(query instanceof TradeQuery.ById byId)) {
      return answered(query, query.query(number)).map(List::of);
    }
    // only a platform that confirms before booking has notifications waiting for it: others cost no read
    Future<List<String>> waiting = settings.confirming().contains(query.platform())
        ? found.waitingTrades(query.platform(), q.orderNo(), WAITING_TRADES_ASKED) : Future.succeededFuture(List.of());
    return waiting.compose(trades -> {
      Set<String> ids = new LinkedHashSet<>();
      if (byId.isOwnId(q.ref())) { // another platform's: not a question for this one
        ids.add(q.ref());
      }
      ids.addAll(trades);
      Future<List<Answered>> all = Future.succeededFuture(List.of());
      for (String id : ids) {
        all = all.compose(before -> answered(query, query.query(number, id))
            .map(a -> Stream.concat(before.stream(), Stream.of(a)).toList()));
      }
      return all;
    });
  }

  private static Future<Answered> answered(TradeQuery query, Future<TradeAnswer> answer) {
    return answer.map(a -> new Answered(query, a, null)).otherwise(err -> new Answered(query, null, err));
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
   * A payment found in a signed answer wins; else a platform that gave no answer makes it a later try; else a
   * payment refunded since, or one an unsigned answer reports, is an anomaly for a human (the unsigned one booked
   * where it confirms its trade's signed notification waiting for it: {@link FoundPayment#unsigned}); else the order is
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

  /** A payment an answer reported, gone through the booking. */
  private static Asked booked(TradeAnswer answer, String said, BookingResult result) {
    return result.outcome() == Outcome.IGNORED // paid before the order existed: another order's, for a human
        ? new Asked(State.UNPAID, answer.platformStatus(), said + ": " + result.detail(), true)
        : new Asked(State.PAID, answer.platformStatus(), said + ": " + result.outcome().code() + ": "
            + result.detail(), true);
  }

  private Future<Asked> act(Question q, Answered a) {
    TradeAnswer answer = a.answer();
    String said = a.query().name() + " says " + answer.platformStatus();
    boolean signed = a.query().books();
    return switch (answer.state()) {
      case PAID -> {
        boolean confirming = settings.confirming().contains(a.query().platform());
        // asked again at its back-off: an unsigned answer ends nothing (its anomaly is recorded once), unless it
        // confirms the signed notification of its trade that waits for it (confirm_before_book)
        if (!signed) {
          yield found.unsigned(a.query(), answer, confirming).map(result -> result != null
              ? booked(answer, said, result) : new Asked(State.UNPAID, answer.platformStatus(), said
                  + ", but its answer is not signed: not booked, recorded as an anomaly to check", false));
        }
        yield found.signed(a.query(), answer, confirming, q.evidence()).map(result -> booked(answer, said, result));
      }
      // whatever its age: never booked, one anomaly; the platform will say no more of it
      case REFUNDED -> found.refunded(a.query(), answer).map(new Asked(State.UNPAID, answer.platformStatus(), said
          + ": paid, then refunded at the platform: not booked, recorded as an anomaly to check before delivering",
          signed));
      // an unsigned "closed" (epay's "refunded") could be anyone's word: the order is left as it is
      case CLOSED -> !signed ? Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said
          + ", but its answer is not signed: the order is left as it is", false))
          // closed at the platform: nothing can be paid on it; past close_after, closed in the table too
          : q.closeDue() && q.platform() != null ? expiry.closeInTable(q.orderNo(), a, "closed at "
          + a.query().platform().code() + " already")
          : Future.succeededFuture(new Asked(State.CLOSED, answer.platformStatus(), said, true));
      // only a trade that exists is closed: with none (a cashier page not opened yet), the buyer can still pay;
      // paid meanwhile (the platform will not close it), what it says now is acted on as any answer
      case WAITING -> q.closeDue() && q.platform() != null && a.query().closes()
          ? expiry.close(q.orderNo(), a, again -> act(new Question(q.orderNo(), q.platform(), q.ref(), false,
              q.evidence()), again))
          : Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said, false));
      case NOT_FOUND -> Future.succeededFuture(new Asked(State.UNPAID, answer.platformStatus(), said, false));
    };
  }
}
