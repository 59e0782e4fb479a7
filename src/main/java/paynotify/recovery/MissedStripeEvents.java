package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.EventBooking;
import paynotify.booking.Outcome;
import paynotify.channel.NotifyEvent;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification;

/**
 * Stripe's events whose webhook delivery has not succeeded, fetched every sweep (those created within
 * max_age) and taken as their webhook would have been: read by the Stripe channel itself, booked through the
 * same booking ({@link FoundPayment}: same keys, a late webhook is a duplicate), a dispute or failed refund
 * recorded as the same anomaly. An event done here is not fetched again by this process; after a restart it
 * is a duplicate, once.
 */
final class MissedStripeEvents {
  /** The client's name, in notify_log and the logs. */
  static final String SOURCE = "stripe events";
  /** At most this many pages (of {@code StripeEvents.PAGE}) a sweep: the rest waits for the next one. */
  private static final int MAX_PAGES = 5;
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
    this.found = found;
    this.booking = booking;
    this.maxAge = maxAge;
    this.clock = clock;
  }

  Future<Pass> sweep() {
    return page(clock.instant().minus(maxAge).getEpochSecond(), null, 1, NOTHING);
  }

  private Future<Pass> page(long since, String after, int n, Pass before) {
    return feed.events().undelivered(since, after).compose(page -> {
      Future<Pass> pass = Future.succeededFuture(before);
      for (JsonObject event : page.events()) {
        pass = pass.compose(p -> take(event).map(p::plus));
      }
      return pass.compose(p -> page.hasMore() && n < MAX_PAGES ? page(since, page.last(), n + 1, p)
          : Future.succeededFuture(p));
    });
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
