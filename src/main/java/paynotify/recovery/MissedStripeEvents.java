package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
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
import paynotify.channel.NotifyEvent;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification;
import paynotify.recovery.StripeCursor.Walk;

/**
 * Stripe's events whose webhook delivery has not succeeded (those created within max_age), taken as their
 * webhook would have been: read by the Stripe channel itself, booked through the same booking
 * ({@link FoundPayment}: same keys, a late webhook is a duplicate), a dispute or failed refund recorded as the
 * same anomaly.
 *
 * <p>Stripe lists newest first, and an account whose other endpoint always fails keeps its events undelivered:
 * reading from the top every sweep would never get past them. So the events are read in walks down a window
 * of their {@code created} ({@link StripeCursor}, in the database): a few pages a sweep, the next sweep (on
 * whichever instance) going on where this one stopped, the next walk taking what was created since. Every
 * event within max_age is looked at once; one whose booking fails stops the sweep there, and is looked at again
 * by the next. An event done here is not taken again by this process.
 */
final class MissedStripeEvents {
  /** The client's name, in notify_log and the logs. */
  static final String SOURCE = "stripe events";
  /**
   * At most this many pages (of {@code StripeEvents.PAGE}) a sweep, more only while one second's events fill
   * them (a walk stops between seconds): the rest waits for the next sweep.
   */
  private static final int MAX_PAGES = 5;
  /** A walk ends this far before now: the newest events are left to their webhook, and to Stripe's list to settle. */
  private static final long SETTLE_SECONDS = 60;
  private static final int REMEMBERED = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(MissedStripeEvents.class);

  /** What one sweep did: events read (new ones), payments or refunds booked now, events left for the next one. */
  record Pass(int read, int booked, int failed) {
    Pass plus(Pass p) {
      return new Pass(read + p.read, booked + p.booked, failed + p.failed);
    }
  }

  private static final Pass NOTHING = new Pass(0, 0, 0);

  private final StripeFeed feed;
  private final StripeCursor cursor;
  private final FoundPayment found;
  private final EventBooking booking;
  private final Duration maxAge;
  private final Clock clock;
  private final Set<String> done = Collections.synchronizedSet(Collections.newSetFromMap(
      new LinkedHashMap<String, Boolean>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > REMEMBERED;
        }
      }));

  MissedStripeEvents(StripeFeed feed, FoundPayment found, EventBooking booking, Duration maxAge, Clock clock) {
    this.feed = feed;
    this.cursor = new StripeCursor(feed.db());
    this.found = found;
    this.booking = booking;
    this.maxAge = maxAge;
    this.clock = clock;
  }

  Future<Pass> sweep() {
    long now = clock.instant().getEpochSecond();
    long oldest = now - maxAge.toSeconds();
    return cursor.read().compose(read -> {
      Walk walk = read.over(oldest) ? read.next(now - SETTLE_SECONDS) : read;
      return walk.over(oldest) ? Future.succeededFuture(NOTHING)
          : new Descent(walk, Math.max(walk.from(), oldest)).page(null);
    });
  }

  /**
   * One sweep down a walk: every page asks for [{@code from}, {@code before}), the part not taken yet when the
   * sweep began (fixed, so that {@code starting_after} pages through one list), and the cursor follows each page.
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
      return feed.events().undelivered(from, before, after).compose(page -> takeFrom(page.events(), 0)
          .compose(failed -> {
            if (failed != null) { // looked at again next sweep: the walk stays above it
              return moved(walk.takenDownTo(created(failed) + 1)).map(pass);
            }
            if (!page.hasMore()) {
              return moved(walk.done()).map(pass);
            }
            if (page.events().isEmpty()) { // "more" and none given: not Stripe's way; nothing is passed
              return Future.succeededFuture(pass);
            }
            long below = created(page.events().get(page.events().size() - 1)) + 1;
            return moved(walk.takenDownTo(below)).compose(on -> on && (pages < MAX_PAGES || below >= before)
                ? page(page.last()) : Future.succeededFuture(pass));
          }));
    }

    /** Takes the events in turn: the one whose booking failed (the rest of the page is left), or null. */
    private Future<JsonObject> takeFrom(List<JsonObject> events, int i) {
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

    /** An event's {@code created}; without one (never from Stripe), the top of the window: the walk passes nothing. */
    private long created(JsonObject event) {
      return event.getValue("created") instanceof Number n ? n.longValue() : before - 1;
    }
  }

  /** One event, as its webhook would have been taken; a booking that fails leaves it to the next sweep. */
  private Future<Pass> take(JsonObject event) {
    String id = event.getValue("id") instanceof String s ? s : null;
    if (id == null || done.contains(id)) {
      return Future.succeededFuture(NOTHING);
    }
    byte[] body = event.toBuffer().getBytes();
    NotifyEvent read;
    try {
      read = feed.channel().read(event);
    } catch (UnbookableNotification u) {
      return booking.recordUnbookable(u, Buffer.buffer(body)).map(r -> {
        done.add(id);
        LOG.warn("{} {}: {}", SOURCE, id, r.detail());
        return new Pass(1, 0, 0);
      }).otherwise(err -> new Pass(1, 0, 1));
    } catch (RejectedNotification r) {
      done.add(id);
      LOG.warn("{} {}: not ours, not booked: {}", SOURCE, id, r.getMessage());
      return Future.succeededFuture(new Pass(1, 0, 0));
    }
    return found.book(SOURCE, read, body, true).map(r -> {
      done.add(id);
      return new Pass(1, r.outcome() == Outcome.PROCESSED || r.outcome() == Outcome.ANOMALY ? 1 : 0, 0);
    }).otherwise(err -> {
      LOG.warn("{} {}: not booked now, taken again next sweep: {}", SOURCE, id, err.toString());
      return new Pass(1, 0, 1);
    });
  }
}
