package paynotify.recovery;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.EventBooking;
import paynotify.booking.Outcome;
import paynotify.booking.Receipt.Booked;
import paynotify.booking.Receipt.Recorded;
import paynotify.booking.Receipt.Refused;
import paynotify.booking.Receipt;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Outbound.Missed;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;
import paynotify.recovery.MissedEventsCursor.Walk;

/**
 * A platform's events whose webhook delivery has not succeeded (those made within max_age: Stripe's events, Paddle's
 * notifications; Lemon Squeezy's orders, every one, as it cannot say which were delivered), taken as their webhook
 * would have been: read by the platform's channel itself, then taken by the same {@link Receipt} ({@link FoundPayment}:
 * same keys, a late webhook is a duplicate), a dispute or failed refund recorded as the same anomaly.
 *
 * <p>Both list newest first, by a window of times and a cursor, and an account whose other endpoint always fails
 * keeps its events undelivered (Stripe lists the account's, whatever endpoint; a Paddle destination that once failed
 * keeps its failed notifications for 90 days): reading from the top every sweep would never get past them. So the
 * events are read in walks down a window of their times ({@link MissedEventsCursor}, in the database, one row a
 * platform): a few pages a sweep, the next sweep (on
 * whichever instance) going on where this one stopped, the next walk taking what was created since. Every
 * event within max_age is looked at at least once; one whose booking fails stops the sweep there, and is looked at
 * again by the next, up to {@value #TRIES} sweeps: then it is given up, a booking_failed anomaly for a human, and the
 * walk goes on past it, so that one event that never books cannot hold every other back until max_age. Each instance
 * counts the tries it made (a restart counts anew); the anomaly's key makes it one whoever gives up first. An event
 * done here (or given up) is not taken again by this process.
 */
final class MissedEvents {
  /**
   * At most this many pages a sweep, more only while one second's events fill them (a walk stops between seconds):
   * the rest waits for the next sweep.
   */
  private static final int MAX_PAGES = 5;
  /**
   * Sweeps an event's booking may fail in before it is given up: fewer, and a database busy for a minute or two would
   * need a human; no limit, and an event that never books (an orders mapping the statement cannot match) would keep the
   * walk above it, and every newer walk waiting, until it is older than max_age.
   */
  private static final int TRIES = 3;
  private static final int REMEMBERED = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(MissedEvents.class);

  /** What one sweep did: events read (new ones), payments or refunds booked now, events left for the next one. */
  record Pass(int read, int booked, int failed) {
    Pass plus(Pass p) {
      return new Pass(read + p.read, booked + p.booked, failed + p.failed);
    }
  }

  private static final Pass NOTHING = new Pass(0, 0, 0);

  private final MissedEventsFeed feed;
  private final MissedEventsCursor cursor;
  private final FoundPayment found;
  private final EventBooking booking;
  private final Duration maxAge;
  private final Clock clock;
  private final Set<String> done = Collections.newSetFromMap(remembered());
  /** In how many sweeps each event's booking failed, here. */
  private final Map<String, Integer> failures = remembered();

  MissedEvents(MissedEventsFeed feed, FoundPayment found, EventBooking booking, Duration maxAge, Clock clock) {
    this.feed = feed;
    this.cursor = new MissedEventsCursor(feed.db(), feed.events().platform());
    this.found = found;
    this.booking = booking;
    this.maxAge = maxAge;
    this.clock = clock;
  }

  /** The list's name, in notify_log and the logs ("stripe events"). */
  String source() {
    return feed.events().source();
  }

  /** The last {@value #REMEMBERED} events put, across threads. */
  private static <V> Map<String, V> remembered() {
    return Collections.synchronizedMap(new LinkedHashMap<String, V>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > REMEMBERED;
      }
    });
  }

  Future<Pass> sweep() {
    long now = clock.instant().getEpochSecond();
    long oldest = now - maxAge.toSeconds();
    return cursor.read().compose(read -> {
      // a walk ends this far before now: the newest events are left to their webhook, and to the list to settle
      Walk walk = read.over(oldest) ? read.next(now - feed.events().settleSeconds()) : read;
      return walk.over(oldest) ? Future.succeededFuture(NOTHING)
          : new Descent(walk, Math.max(walk.from(), oldest)).page(null);
    });
  }

  /**
   * One sweep down a walk: every page asks for [{@code from}, {@code before}), the part not taken yet when the
   * sweep began (fixed, so that the list's cursor pages through one list), and the cursor follows each page.
   */
  private final class Descent {
    private final long from;
    private final long before;
    private Walk walk;
    private int pages;
    private Pass pass = NOTHING;

    Descent(Walk walk, long from) {
      this.walk = walk;
      this.from = from;
      this.before = walk.below();
    }

    Future<Pass> page(String after) {
      pages++;
      return feed.events().page(from, before, after).compose(page -> takeFrom(page.events(), 0)
          .compose(failed -> {
            if (failed != null) { // looked at again next sweep: the walk stays above it
              return moved(walk.takenDownTo(created(failed) + 1)).map(pass);
            }
            if (!page.hasMore()) {
              return moved(walk.done()).map(pass);
            }
            if (page.events().isEmpty()) { // "more" and none given: not the platforms' way; nothing is passed
              return Future.succeededFuture(pass);
            }
            long below = created(page.events().get(page.events().size() - 1)) + 1;
            return moved(walk.takenDownTo(below)).compose(on -> on && (pages < MAX_PAGES || below >= before)
                ? page(page.after()) : Future.succeededFuture(pass));
          }));
    }

    /** Takes the events in turn: the one whose booking failed (the rest of the page is left), or null. */
    private Future<Missed> takeFrom(List<Missed> events, int i) {
      if (i == events.size()) {
        return Future.succeededFuture();
      }
      return take(events.get(i)).compose(p -> {
        pass = pass.plus(p);
        return p.failed() > 0 ? Future.succeededFuture(events.get(i)) : takeFrom(events, i + 1);
      });
    }

    /** Whether the walk is still this sweep's to go on with. */
    private Future<Boolean> moved(Walk next) {
      return cursor.move(next).map(row -> {
        walk = row;
        return row != null;
      });
    }

    /** When an event was made; without a time (never from the platforms), the top of the window: nothing is passed. */
    private long created(Missed event) {
      return event.created() != null ? event.created() : before - 1;
    }
  }

  /**
   * One event, as its webhook would have been taken: read by the platform's channel (what it throws is what it made
   * of the event), then what {@link Receipt#take} decides. A booking that fails leaves it to the next sweep.
   */
  private Future<Pass> take(Missed event) {
    String id = event.id();
    if (id == null || done.contains(id)) {
      return Future.succeededFuture(NOTHING);
    }
    Future<NotifyEvent> read = NotifyChannel.sync(() -> feed.events().read(event.event()));
    return found.take(source(), read, event.event().toBuffer().getBytes(), true).compose(taken -> {
      if (taken instanceof Booked b) {
        NotifyEvent e = b.event();
        if (b.booked().failed()) {
          return failed(event, id, e.orderNo(), e.tradeNo(), e.amountCents(), b.booked().cause());
        }
        Outcome outcome = b.booked().result().outcome();
        return done(id, outcome == Outcome.PROCESSED || outcome == Outcome.ANOMALY ? 1 : 0);
      }
      if (taken instanceof Recorded r) {
        UnbookableNotification u = r.why();
        if (r.recorded().failed()) {
          return failed(event, id, u.orderNo(), u.tradeNo(), u.amountCents(), r.recorded().cause());
        }
        // an anomaly recorded is news; one found booked meanwhile (a payment naming no order) is not
        if (r.recorded().result().outcome() == Outcome.ANOMALY) {
          LOG.warn("{} {}: {}", source(), id, r.recorded().result().detail());
        } else {
          LOG.debug("{} {}: {}", source(), id, r.recorded().result().detail());
        }
        return done(id, 0);
      }
      Throwable why = ((Refused) taken).why();
      if (!(why instanceof RejectedNotification)) { // not a refusal: a bug of the reading, for the sweep to fail on
        return Future.failedFuture(why);
      }
      LOG.warn("{} {}: not ours, not booked: {}", source(), id, why.getMessage());
      return done(id, 0);
    });
  }

  /** An event taken: not taken again by this process; {@code booked} payments or refunds booked now. */
  private Future<Pass> done(String id, int booked) {
    done.add(id);
    return Future.succeededFuture(new Pass(1, booked, 0));
  }

  /**
   * An event not taken now, for {@code err}: taken again by the next sweep (the walk stays above it), until it has
   * failed in {@link #TRIES}: then given up, a booking_failed anomaly naming it, and the walk goes on past it (once
   * that is committed: nothing is passed silently).
   */
  private Future<Pass> failed(Missed event, String id, String orderNo, String tradeNo, Long amountCents,
      Throwable err) {
    int tries = failures.merge(id, 1, Integer::sum);
    if (tries < TRIES) {
      LOG.warn("{} {}: not booked now (try {} of {}), taken again next sweep: {}", source(), id, tries, TRIES,
          err.toString());
      return Future.succeededFuture(new Pass(1, 0, 1));
    }
    // named by its trade where it has one: the trade's later booking (the platform retries for days) resolves it
    UnbookableNotification givenUp = new UnbookableNotification(Problem.BOOKING_FAILED, feed.events().platform(),
        tradeNo != null ? tradeNo : id, orderNo, tradeNo, amountCents, feed.events().platform().label() + " event " + id
        + " (" + event.type() + (orderNo == null ? "" : ", order " + orderNo)
        + ") not booked: its booking failed in " + tries + " sweeps, recovery went on past it. The last error: "
        + (err.getMessage() == null ? err.toString() : err.getMessage()));
    return booking.recordUnbookable(givenUp, event.event().toBuffer()).map(r -> {
      done.add(id);
      failures.remove(id);
      LOG.warn("{} {}: given up, a {} anomaly: {}", source(), id, AnomalyKind.BOOKING_FAILED.code(),
          givenUp.getMessage());
      return new Pass(1, 0, 0);
    }).otherwise(notRecorded -> {
      LOG.warn("{} {}: not booked, and its anomaly not recorded now; taken again next sweep: {}", source(), id,
          notRecorded.toString());
      return new Pass(1, 0, 1);
    });
  }
}
