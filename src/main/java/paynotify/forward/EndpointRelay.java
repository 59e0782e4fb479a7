package paynotify.forward;

import static paynotify.store.SqlQueries.CLAIM_DUE_EVENTS;
import static paynotify.store.SqlQueries.DISABLE_ENDPOINT;
import static paynotify.store.SqlQueries.ENDPOINT_DISABLED;
import static paynotify.store.SqlQueries.EVENT_FAILED;
import static paynotify.store.SqlQueries.EVENT_RETRY_LATER;
import static paynotify.store.SqlQueries.eventsDelivered;
import static paynotify.store.SqlQueries.leaseEvents;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.forward.ForwardSettings.Endpoint;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.store.Database;
import paynotify.timer.Periodic;

/**
 * Delivers one endpoint's rows of the outbox (forward_events), at least once, on the relay's connections and
 * HTTP client: an endpoint down or slow never holds a booking, nor another endpoint (each has its own rounds).
 * Each round claims the endpoint's due events in a short transaction (FOR UPDATE SKIP LOCKED, so instances do
 * not wait on each other) and leases them to this instance; the lease is committed before anything is sent, so
 * no two instances send an event at the same moment, and an instance that dies mid-send leaves a lease that
 * expires and is taken over. An answer 2xx within the timeout delivers the event; anything else is retried on
 * the schedule, and after the last try the event is failed and an anomaly says so.
 *
 * <p>One order's events reach the endpoint one at a time, in the order they were written (a refund never
 * before the payment it refunds): a claim takes only the oldest undelivered event of each order, so a batch
 * holds at most one per order, and different orders are sent in parallel. The next event of an order waits
 * while the older one is leased (in flight here or on another instance), waits for its retry, and stays behind
 * it once it failed, until {@code forward retry} sends it again. Leases and due times are UTC, so instances
 * need not share {@code database.time_zone}.
 *
 * <p>Answers as Standard Webhooks says: a 410 Gone disables the endpoint (every instance, until {@code forward
 * enable}); 429, 502, 503 and 504 wait at least their Retry-After; forward.disable_after_4xx different events
 * refused 4xx (not 408, 429) with none accepted between disable it too, rather than burn every event's retries. The answer is read up to
 * {@link #MAX_ANSWER_BYTES} and no further ({@link OutboundHttp#sendForStatus}: the connection is closed): only its
 * status counts, and a receiver answering a huge body cannot grow the heap.
 */
final class EndpointRelay {
  private static final Logger LOG = LoggerFactory.getLogger(EndpointRelay.class);
  /** Events claimed and sent at once, at most: the HTTP client's pool has as many connections. */
  static final int BATCH = 8;
  /** What is read of an answer's body at most; the receiver's answer is a word ("ok"). */
  static final int MAX_ANSWER_BYTES = 64 * 1024;
  /** The answers of a site that asks to be left alone a while (Standard Webhooks: throttle, honour Retry-After). */
  private static final Set<Integer> BACK_OFF = Set.of(429, 502, 503, 504);
  private static final long MAX_RETRY_AFTER_SECONDS = 86_400;
  /** Standard Webhooks: the endpoint was removed, stop sending to it. */
  private static final int GONE = 410;
  /** 4xx answers that say "later", not "never": not refusals. */
  private static final Set<Integer> NOT_REFUSALS = Set.of(408, 429, GONE);

  private final Vertx vertx;
  private final Database db;
  private final ForwardSettings settings;
  private final Endpoint endpoint;
  private final ForwardSignature signature;
  private final WebhookSignature webhookSignature;
  private final OutboundHttp http;
  /** This instance, as lease_owner. */
  private final String owner;
  /**
   * The events this instance saw the endpoint refuse (4xx) since it last accepted one: different events, so that
   * one event it cannot take, retried, never disables it.
   */
  private final Set<String> refused = new HashSet<>();
  private volatile Periodic rounds;

  private record Claimed(long id, String eventId, String type, String orderNo, byte[] body, int attempts) {}

  /** @param db the relay's pool, shared with the other endpoints' */
  EndpointRelay(Vertx vertx, Database db, ForwardSettings settings, Endpoint endpoint, String owner) {
    this.vertx = vertx;
    this.db = db;
    // Its own connections: an endpoint hanging holds none that another endpoint on the same host needs.
    this.http = new OutboundHttp(vertx, new OutboundHttp.Limits(settings.timeout(), MAX_ANSWER_BYTES)
        .pool(BATCH, 2 * BATCH)); // a round sends BATCH at once; more wait only beside a run by hand
    this.settings = settings;
    this.endpoint = endpoint;
    this.owner = owner;
    this.signature = new ForwardSignature(endpoint.secret());
    this.webhookSignature = new WebhookSignature(endpoint.secrets());
  }

  /**
   * Runs a round every {@code periodMs}, never two at once; after a full batch the next one at once,
   * so that a backlog (a burst of payments, the site back up after downtime) drains at full speed.
   */
  void start(long periodMs) {
    rounds = Periodic.draining(vertx, Duration.ofMillis(periodMs), () -> runOnce()
        .onFailure(err -> LOG.warn("forward: round failed, next one tries again: {}", err.getMessage()))
        .map(sent -> sent == BATCH));
  }

  /**
   * Claims the due events and sends them; completes when their outcomes are written: the delivered
   * ones in one statement, each failure on its own (the rare case).
   */
  Future<Integer> runOnce() {
    return claim().compose(claimed -> {
      List<Future<Void>> sent = claimed.stream().map(this::send).toList();
      return Future.join(sent).transform(all -> {
        List<Long> delivered = new ArrayList<>();
        List<Future<Void>> written = new ArrayList<>();
        for (int i = 0; i < claimed.size(); i++) {
          if (sent.get(i).succeeded()) {
            accepted();
            delivered.add(claimed.get(i).id());
          } else {
            written.add(failed(claimed.get(i), sent.get(i).cause()));
          }
        }
        written.add(delivered(delivered));
        return Future.join(written).map(claimed.size());
      });
    });
  }

  /**
   * Stops after the round in flight, if any, has written its outcomes (bounded by the timeout): an
   * attempt cut by the stop would count as failed, and could fail an event the site was accepting.
   */
  Future<Void> stop() {
    Future<Void> inFlight = rounds == null ? Future.succeededFuture() : rounds.stop();
    return inFlight.timeout(settings.timeout().toMillis() + 2_000, TimeUnit.MILLISECONDS).otherwiseEmpty()
        .eventually(http::close);
  }

  /** The endpoint accepted an event: a run of refusals ends. */
  private synchronized void accepted() {
    refused.clear();
  }

  /** The endpoint refused {@code eventId}: how many different events it refused since it last accepted one. */
  private synchronized int refusedBy(String eventId) {
    refused.add(eventId);
    return refused.size();
  }

  /**
   * The due events, leased to this instance; none while the endpoint is disabled (until forward enable), and the
   * refusals seen before it was disabled (here or by another instance) are forgotten: enabled again, it starts
   * afresh.
   */
  private Future<List<Claimed>> claim() {
    return db.inTransaction(conn -> conn.preparedQuery(ENDPOINT_DISABLED).execute(Tuple.of(endpoint.name()))
        .onSuccess(disabled -> {
          if (disabled.size() > 0) {
            accepted();
          }
        })
        .compose(disabled -> disabled.size() > 0 ? Future.succeededFuture(List.of())
        : conn.preparedQuery(CLAIM_DUE_EVENTS).execute(Tuple.of(endpoint.name(), BATCH)).compose(rows -> {
      List<Claimed> claimed = new ArrayList<>();
      Tuple lease = Tuple.of(owner, settings.lease().toMillis());
      for (Row r : rows) {
        claimed.add(new Claimed(r.getLong("id"), r.getString("event_id"), r.getString("type"), r.getString("order_no"),
            r.getString("body").getBytes(StandardCharsets.UTF_8), r.getInteger("attempts")));
        lease.addLong(r.getLong("id"));
      }
      return claimed.isEmpty() ? Future.succeededFuture(claimed)
          : conn.preparedQuery(leaseEvents(claimed.size())).execute(lease).map(claimed);
    })));
  }

  private Future<Void> send(Claimed event) {
    long now = System.currentTimeMillis() / 1000;
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json")
        .add("User-Agent", "paynotify")
        .add(WebhookSignature.PAYNOTIFY_EVENT_ID, event.eventId())
        .add(WebhookSignature.PAYNOTIFY_SIGNATURE, signature.header(now, event.body()))
        .add(WebhookSignature.ID, event.eventId())
        .add(WebhookSignature.TIMESTAMP, Long.toString(now))
        .add(WebhookSignature.SIGNATURE, webhookSignature.header(event.eventId(), now, event.body()));
    // a timed-out attempt is ended (reset) by OutboundHttp, never left to overlap with its retry
    return http.sendForStatus(HttpMethod.POST, endpoint.url(), headers, Buffer.buffer(event.body()))
        .map(EndpointRelay::answer)
        .compose(answer -> answer.status() / 100 == 2 ? Future.succeededFuture()
            : Future.failedFuture(new NotAccepted(answer)));
  }

  /**
   * The site's answer: its status, and with 429, 502, 503 or 504 (the site asks to be left alone a while) its
   * Retry-After in seconds, 0 otherwise.
   */
  private record Answer(int status, long retryAfterSeconds) {}

  /** An answer other than 2xx: a failed attempt (a 3xx too: redirects are not followed). */
  private static final class NotAccepted extends RuntimeException {
    private final Answer answer;

    NotAccepted(Answer answer) {
      super("the endpoint answered HTTP " + answer.status() + (answer.retryAfterSeconds() > 0 ? " (Retry-After "
          + answer.retryAfterSeconds() + " s)" : ""), null, false, false);
      this.answer = answer;
    }
  }

  private static Answer answer(OutboundHttp.Answer answer) {
    return new Answer(answer.status(), BACK_OFF.contains(answer.status())
        ? retryAfter(answer.headers().get("Retry-After")) : 0);
  }

  /** Retry-After in seconds (its HTTP-date form is not read), within a day; 0 when absent or unreadable. */
  private static long retryAfter(String header) {
    if (header == null || !header.strip().matches("[0-9]{1,9}")) {
      return 0;
    }
    return Math.min(Long.parseLong(header.strip()), MAX_RETRY_AFTER_SECONDS);
  }

  /** Writes the attempts' outcome, as long as this instance still holds the events. */
  private Future<Void> delivered(List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    Tuple args = Tuple.of(owner);
    ids.forEach(args::addLong);
    return db.inTransaction(conn -> conn.preparedQuery(eventsDelivered(ids.size())).execute(args)).mapEmpty();
  }

  private Future<Void> failed(Claimed event, Throwable cause) {
    String error = reason(cause);
    int attempt = event.attempts() + 1;
    String what = "forward: event " + event.eventId() + " (" + event.type() + ", order " + event.orderNo()
        + ") to " + endpoint.name();
    int status = cause instanceof NotAccepted refusal ? refusal.answer.status() : 0;
    if (status == GONE) {
      return disable(event, what, error, AnomalyKind.FORWARD_ENDPOINT_GONE, "410 Gone for event " + event.eventId()
          + " (" + event.type() + ")");
    }
    int refusals = status / 100 == 4 && !NOT_REFUSALS.contains(status) ? refusedBy(event.eventId()) : 0;
    if (settings.disableAfter4xx() > 0 && refusals >= settings.disableAfter4xx()) {
      return disable(event, what, error, AnomalyKind.FORWARD_ENDPOINT_REFUSING, refusals + " events refused 4xx in"
          + " a row, the last HTTP " + status + " for event " + event.eventId() + " (" + event.type() + ")");
    }
    if (attempt <= settings.schedule().size()) {
      long wait = Math.max(jittered(settings.schedule().get(attempt - 1).toSeconds()),
          cause instanceof NotAccepted refused ? refused.answer.retryAfterSeconds() : 0);
      LOG.warn("{} not delivered, attempt {}: {}; next in {} s", what, attempt, error, wait);
      return db.inTransaction(conn -> conn.preparedQuery(EVENT_RETRY_LATER)
          .execute(Tuple.of(wait, error, event.id(), owner))).mapEmpty();
    }
    LOG.error("{} not delivered after {} attempts, given up: {}; see paynotify forward list --failed", what, attempt,
        error);
    String kind = AnomalyKind.FORWARD_FAILED.code();
    Anomaly anomaly = new Anomaly(kind, "forward", event.orderNo(), null, null, (what.substring("forward: ".length())
        + " not delivered after " + attempt + " attempts: " + error),
        // one per failure: an event retried by hand that fails again is news again
        kind + ":" + event.eventId() + ":" + System.currentTimeMillis());
    return db.inTransaction(conn -> conn.preparedQuery(EVENT_FAILED).execute(Tuple.of(error, event.id(), owner))
        .compose(failed -> failed.rowCount() == 1 ? Anomalies.recordUntold(conn, anomaly) : Future.succeededFuture()));
  }

  /**
   * The endpoint is disabled (a 410 Gone: it was removed; answers 4xx in a row: it cannot take any): no instance
   * sends to it any more until {@code forward enable}; the event stays pending, due at once then. The instance
   * that disabled it records the anomaly (its alert), once.
   */
  private Future<Void> disable(Claimed event, String what, String error, AnomalyKind kind, String reason) {
    LOG.error("{}: {}: nothing is sent to {} any more until paynotify forward enable --endpoint {}", what, reason,
        endpoint.shownUrl(), endpoint.name());
    Anomaly anomaly = new Anomaly(kind.code(), "forward", event.orderNo(), null, null, "endpoint " + endpoint.name()
        + " (" + endpoint.shownUrl() + "): " + reason + ": nothing is sent to it any more",
        kind.code() + ":" + endpoint.name() + ":" + System.currentTimeMillis());
    return db.inTransaction(conn -> conn.preparedQuery(DISABLE_ENDPOINT).execute(Tuple.of(endpoint.name(), reason,
            reason))
        .compose(disabled -> conn.preparedQuery(EVENT_RETRY_LATER).execute(Tuple.of(0, error, event.id(), owner))
            .compose(v -> disabled.rowCount() > 0 ? Anomalies.recordUntold(conn, anomaly) : Future.succeededFuture())))
        .mapEmpty();
  }

  /** {@code seconds}, give or take 10%: the retries of many events failed at one moment do not come back at one. */
  private static long jittered(long seconds) {
    long spread = seconds / 10;
    return spread == 0 ? seconds : seconds - spread + ThreadLocalRandom.current().nextLong(2 * spread + 1);
  }

  /**
   * Why an attempt failed, in a line (never the secret: it is in no request field but the signature). An
   * OutboundFailure is told by its cause: the line names the endpoint already, and a timeout in its own words.
   */
  private String reason(Throwable failure) {
    Throwable err = failure instanceof OutboundFailure && failure.getCause() != null ? failure.getCause() : failure;
    String why = err instanceof TimeoutException || err.getClass().getSimpleName().contains("Timeout")
        ? "no answer within " + settings.timeout().toMillis() + " ms"
        : err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage();
    return why.length() > 400 ? why.substring(0, 400) : why;
  }
}
