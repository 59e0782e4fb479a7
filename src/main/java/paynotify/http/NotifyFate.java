package paynotify.http;

import io.vertx.core.Future;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking;
import paynotify.booking.Outcome;
import paynotify.booking.Receipt.Booked;
import paynotify.booking.Receipt.Recorded;
import paynotify.booking.Receipt.Refused;
import paynotify.booking.Receipt.Taken;
import paynotify.booking.Receipt.Unconfirmed;
import paynotify.booking.Receipt;
import paynotify.booking.RepeatNotChecked;
import paynotify.channel.NotifyChannel.Reply;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification;
import paynotify.channel.VerificationUnavailable;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.NotifyLog;
import paynotify.store.RejectedLog;
import paynotify.store.WriteRefusals;

/**
 * What becomes of one request to a notify endpoint, decided once and finished once, as dj-stripe's
 * {@code WebhookEventTrigger.from_request} owns a received call: the channel checks it, then the booking's
 * {@link Receipt} decides, as for whatever else arrives: a verified event is booked, a genuine notification
 * booking cannot follow is recorded as an anomaly, anything else is refused. Then {@link #finish} leaves, for
 * every request exactly once:
 * <ul>
 *   <li>its trace: a notify_log row with its body (verified or genuine: the receipt writes it), a bodiless
 *       row ({@link RejectedLog#record}: refused, or input our parsing did not foresee), or, when there
 *       is nothing to show (a body not read whole, a signature that cannot be checked now, a repeat the
 *       pre-check could not confirm), only a log line, at most one per second ({@link RejectedLog#log});
 *   <li>its count in /metrics, by outcome;
 *   <li>its reply: the channel's success once the booking (or the anomaly) is committed or found
 *       booked; otherwise its failure, so that the platform retries.
 * </ul>
 * {@link NotifyVerticle} routes, times out and sends the reply. The HTTP side runs no SQL: the rows
 * are queued, and written off the booking pool.
 */
final class NotifyFate {
  // These lines have always been NotifyVerticle's: an operator's log filter keeps finding them.
  private static final Logger LOG = LoggerFactory.getLogger(NotifyVerticle.class);

  /**
   * Where every request's fate is kept, shared by all of them.
   *
   * @param booking  books what the channel verified
   * @param receipt  decides a checked request's fate, books it and writes its row (verified and genuine ones)
   * @param rejected the rows of refused requests: a queue and a rate limit of their own, so that a flood
   *                 of forgeries costs a genuine notification nothing
   * @param metrics  the counts by endpoint and outcome, and the booking times
   * @param refusals whether the database refuses writes: told of each booking refused for it and each committed
   *                 (in memory: the booking path runs no statement more)
   */
  record Keepers(EventBooking booking, Receipt receipt, RejectedLog rejected, NotifyMetrics metrics,
      WriteRefusals refusals, Function<NotifyEvent, Future<String>> confirm) {
    /**
     * @param booking null for a verticle that is never started, only read for its routes (as every other keeper)
     * @param log     the rows of verified and genuine notifications
     * @param confirm why a payment of a channel that confirms before booking is not confirmed by its platform's
     *                query, null when it is (recovery's); null when no channel confirms
     */
    Keepers(EventBooking booking, NotifyLog log, RejectedLog rejected, NotifyMetrics metrics, WriteRefusals refusals,
        Function<NotifyEvent, Future<String>> confirm) {
      this(booking, booking == null ? null : booking.receipt(log), rejected, metrics, refusals, confirm);
    }
  }

  private final Keepers keepers;
  private final NotifyChannel channel;
  private final String remote;
  /** Counted: set by {@link #finish} only, on the request's event loop. */
  private boolean finished;

  /** @param remote the caller's address, null when unknown */
  NotifyFate(Keepers keepers, NotifyChannel channel, String remote) {
    this.keepers = keepers;
    this.channel = channel;
    this.remote = remote;
  }

  /** A request on the path of a channel that is not configured: a line, no count (it is no endpoint). */
  static void channelOff(Keepers keepers, String path, String hint) {
    keepers.rejected().log(path, "notify on " + path + " refused: that channel is not configured (" + hint + ")",
        null);
  }

  /** The body could not be read whole (too large, cut off): refused before the channel saw it. */
  Reply unread(Throwable why) {
    String endpoint = channel.endpoint();
    boolean tooLarge = why instanceof RawBody.TooLarge;
    return finish(Outcome.REJECTED,
        () -> keepers.rejected().log(endpoint, endpoint + " notify from " + remote + " refused: " + why.getMessage(),
            null),
        channel.failure(tooLarge ? 413 : 400, tooLarge ? "body too large" : "unreadable body"));
  }

  /** Checked by the channel, then booked, recorded or refused ({@link Receipt#take}): the reply, once kept. */
  Future<Reply> decide(NotifyRequest request) {
    Trace trace = new Trace(channel.endpoint(), remote, request.payload()); // a GET's query is its body
    // composed, so that a channel's bug thrown, not failed, is refused as unforeseen input all the same
    Future<NotifyEvent> checked = Future.succeededFuture(request).compose(channel::check);
    Future<Taken> decided = channel.confirmsBeforeBooking() ? keepers.receipt().take(trace, checked, keepers.confirm())
        : keepers.receipt().take(trace, checked, false);
    return decided.map(taken -> {
      if (taken instanceof Booked b) {
        keepers.metrics().booked(channel.endpoint(), b.nanos());
        return b.booked().succeeded() ? booked(b.event(), b.booked().result())
            : notBooked(b.event(), b.booked().cause());
      }
      if (taken instanceof Recorded r) {
        return r.recorded().succeeded() ? recorded(r.recorded().result()) : notRecorded(r.why(), r.recorded().cause());
      }
      if (taken instanceof Unconfirmed u) {
        return unconfirmed(u);
      }
      return refuse(trace, ((Refused) taken).why());
    });
  }

  /** Not verified: refused (4xx, nothing booked), or not verifiable now (5xx, the platform retries). */
  private Reply refuse(Trace trace, Throwable why) {
    String endpoint = channel.endpoint();
    RejectedLog rejected = keepers.rejected();
    if (why instanceof RejectedNotification r) {
      return finish(Outcome.REJECTED,
          () -> rejected.record(trace, Outcome.REJECTED.code(), r.reason() + ": " + r.getMessage(), null),
          channel.failure(r.status(), r.reason().name().toLowerCase()));
    }
    if (why instanceof VerificationUnavailable unavailable) {
      return finish(Outcome.ERROR, () -> rejected.log(endpoint, endpoint
              + " notify not verified, replied failure so the platform retries: " + unavailable.getMessage(), null),
          channel.failure(503, "not verified, retry later"));
    }
    // input our parsing did not foresee: refuse it, say so, keep serving
    return finish(Outcome.ERROR, () -> rejected.record(trace, Outcome.ERROR.code(), "unreadable: " + why, why),
        channel.failure(500, "internal error"));
  }

  /** Booked, or found booked before (its row written by the receipt): the platform may stop retrying. */
  private Reply booked(NotifyEvent event, BookingResult result) {
    String endpoint = channel.endpoint();
    Outcome outcome = result.outcome();
    if (outcome == Outcome.PROCESSED || outcome == Outcome.ANOMALY) { // a write committed (not a row found before)
      keepers.refusals().succeeded();
    }
    return finish(outcome, () -> {
      switch (outcome) {
        case PROCESSED -> LOG.info("{} {}: {}", endpoint, event.idempotencyKey(), result.detail());
        case DUPLICATE, IGNORED -> LOG.debug("{} {} {}: {}", endpoint, event.idempotencyKey(), outcome.code(),
            result.detail());
        default -> LOG.warn("{} {} {}: {}", endpoint, event.idempotencyKey(), outcome.code(), result.detail());
      }
    }, channel.success());
  }

  /** Not known to be committed: the platform must retry (a retry of a late commit is a duplicate). */
  private Reply notBooked(NotifyEvent event, Throwable err) {
    String endpoint = channel.endpoint();
    Reply retry = channel.failure(503, "not booked, retry later");
    if (err instanceof RepeatNotChecked repeat) { // booked before: its first delivery left the row
      return finish(Outcome.ERROR, () -> keepers.rejected().log(endpoint, endpoint
          + " replied failure so the platform retries: " + repeat.getMessage(), null), retry);
    }
    keepers.refusals().refused(endpoint, channel.platform(), keepers.booking().siteOrderNo(event.orderNo()), err);
    return finish(Outcome.ERROR, () -> LOG.error("{} {} not booked, replied failure so the platform retries: {}",
        endpoint, event.idempotencyKey(), err.toString()), retry);
  }

  /** Genuine but not bookable, its anomaly committed: the platform may stop retrying; its row keeps its body. */
  private Reply recorded(BookingResult result) {
    String endpoint = channel.endpoint();
    if (result.outcome() == Outcome.ANOMALY) {
      keepers.refusals().succeeded();
    }
    return finish(result.outcome(), () -> {
      if (result.outcome() == Outcome.ANOMALY) {
        LOG.warn("{} {}", endpoint, result.detail());
      } else { // a PaymentIntent without order that its Session had booked
        LOG.debug("{} {}: {}", endpoint, result.outcome().code(), result.detail());
      }
    }, channel.success());
  }

  /** Genuine, but its anomaly could not be committed: an error row, and the platform retries. */
  private Reply notRecorded(UnbookableNotification why, Throwable err) {
    String endpoint = channel.endpoint();
    keepers.refusals().refused(endpoint, channel.platform(), keepers.booking().siteOrderNo(why.orderNo()), err);
    return finish(Outcome.ERROR, () -> LOG.error(
        "{} genuine notification not recorded, replied failure so the platform retries: {}", endpoint, err.toString()),
        channel.failure(503, "not recorded, retry later"));
  }

  /**
   * Genuine, but its platform's query did not confirm it (confirm_before_book): nothing booked, its wait kept as an
   * anomaly (counted as one); the failure reply, so that the platform delivers it again, while the sweeper asks again.
   */
  private Reply unconfirmed(Unconfirmed u) {
    String endpoint = channel.endpoint();
    String key = u.event().idempotencyKey();
    Reply retry = channel.failure(503, "not confirmed, retry later");
    if (u.recorded().failed()) {
      keepers.refusals().refused(endpoint, channel.platform(), keepers.booking().siteOrderNo(u.event().orderNo()),
          u.recorded().cause());
      return finish(Outcome.ERROR, () -> LOG.error("{} {} not confirmed, and its wait not recorded, replied failure so"
          + " the platform retries: {}", endpoint, key, u.recorded().cause().toString()), retry);
    }
    if (u.recordedNow()) { // a write committed (not a wait kept since an earlier delivery: rolled back)
      keepers.refusals().succeeded();
    }
    return finish(Outcome.ANOMALY, () -> LOG.warn("{} {} not booked, replied failure so the platform delivers it again"
        + " (confirm_before_book): {}", endpoint, key, u.why()), retry);
  }

  /**
   * A bug of ours on the way (booking, or the finishing itself, threw): said with its stack, counted as an
   * error if it was not counted yet, answered with the failure reply, so that the platform retries (a
   * booking that did commit is then a duplicate).
   */
  Reply bug(Throwable err) {
    LOG.error("{} notify failed on a bug, replied failure so the platform retries", channel.endpoint(), err);
    if (!finished) {
      keepers.metrics().count(channel.endpoint(), Outcome.ERROR.code());
    }
    return channel.failure(500, "internal error");
  }

  /** The one end of every request: its trace, its count, and the reply it is to get. */
  private Reply finish(Outcome outcome, Runnable trace, Reply reply) {
    trace.run();
    keepers.metrics().count(channel.endpoint(), outcome.code());
    finished = true;
    return reply;
  }
}
