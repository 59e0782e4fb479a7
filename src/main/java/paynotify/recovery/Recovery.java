package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import paynotify.booking.EventBooking;
import paynotify.booking.SiteEvents;
import paynotify.channel.NotifyEvent;
import paynotify.channel.TradeQuery;
import paynotify.recovery.Sweeper.Sweep;
import paynotify.store.Database;
import paynotify.store.Lease;
import paynotify.store.NotifyLog;
import paynotify.store.OrdersTable;
import paynotify.timer.Periodic;

/**
 * Goes and gets what never arrived, the door the server, the admin listener and {@code paynotify check} use: the {@link
 * Sweeper} asks about the site's unpaid orders whose notification may have been lost, and reads Stripe's and Paddle's
 * undelivered events and Lemon Squeezy's orders ({@link MissedEvents}); an {@link OrderCheck} asks about one order now,
 * for the site's return page. Both ask through one {@link Asking}, which books what a platform says was paid through
 * the same booking as a notification ({@link FoundPayment}) and closes what expired ({@link OrderExpiry}), within one
 * {@link QueryBudget}; both hold orders in order_checks through one {@link Lease}.
 */
public final class Recovery {
  private final RecoverySettings settings;
  private final Asking asking;
  private final List<MissedEvents> missed;
  private final Sweeper sweeper;
  private final OrderCheck checks;
  private final FoundPayment found;

  /**
   * @param db      a pool of recovery's own (READ COMMITTED): a slow platform never holds a booking's connection
   * @param queries the platforms that can be asked, in the order they are tried for an order of unknown platform
   * @param missed  the platforms' undelivered events, fetched every sweep: those whose API key is set
   */
  public Recovery(Vertx vertx, Database db, EventBooking booking, NotifyLog log, OrdersTable orders,
      SiteEvents outbox, List<TradeQuery> queries, List<MissedEventsFeed> missed, RecoverySettings settings) {
    this.settings = settings;
    this.found = new FoundPayment(FoundBy.QUERY, booking, log, db, outbox, orders, settings.createdAt());
    this.missed = missed.stream()
        .map(feed -> new MissedEvents(feed, found, booking, settings.maxAge(), Clock.systemUTC())).toList();
    this.asking = new Asking(queries, orders, settings, found, new OrderExpiry(booking, orders));
    Lease orderChecks = new Lease(vertx, db);
    this.sweeper = new Sweeper(db, orders, settings, asking, orderChecks, this.missed);
    this.checks = new OrderCheck(db, orders, settings, asking, orderChecks);
  }

  /** Whether the sweeper runs (recovery.enabled); {@link #check} works either way. */
  public boolean sweeps() {
    return settings.enabled();
  }

  /** Sweeps every {@code settings.interval()}, until the clock returned is stopped. */
  public Periodic schedule(Vertx vertx) {
    return sweeper.start(vertx);
  }

  /** One sweep now (a test's): the due orders asked about. */
  public Future<Sweep> sweepOnce() {
    return sweeper.sweepOnce();
  }

  /**
   * The platforms' events whose delivery failed, made within max_age, booked as their webhooks would have been:
   * the number booked now. Nothing without an API key; a platform unreachable is logged, not a failure.
   */
  public Future<Integer> fetchMissedEvents() {
    return sweeper.fetchMissedEvents();
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
    sweeper.askFirst(from, to);
  }

  /**
   * Asks about one order now (the site's return page) and books what is found: the order's state once that is
   * done, or, not asked (not unpaid, too old, asked within the cooldown, the budget spent), why not.
   */
  public Future<CheckAnswer> check(String orderNo) {
    return checks.check(orderNo);
  }

  /**
   * Why {@code payment}, signed with a key an aggregator also holds, is not confirmed by its platform's order query
   * (confirm_before_book): null when the query says paid, by the same trade, for the same amount
   * ({@link TradeConfirmation}); else what it said, or that it could not be asked. Never fails on the platform. Not
   * counted in the sweeper's budget: each such notification asks once, as it arrives.
   */
  public Future<String> unconfirmed(NotifyEvent payment) {
    TradeQuery query = asking.queries().stream().filter(q -> q.platform() == payment.platform()).findFirst()
        .orElse(null);
    return query == null ? Future.succeededFuture("no order query of " + payment.platform().code() + " is configured")
        : TradeConfirmation.refusal(query, payment, found, "the signed notification", null);
  }

  /** The platforms this instance can ask, by name (status page, start log). */
  public List<String> clients() {
    List<String> names = new ArrayList<>(asking.queries().stream().map(TradeQuery::name).toList());
    missed.forEach(feed -> names.add(feed.source()));
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
