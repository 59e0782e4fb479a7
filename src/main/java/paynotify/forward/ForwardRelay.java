package paynotify.forward;

import static paynotify.store.SqlQueries.CLAIM_DUE_EVENTS;
import static paynotify.store.SqlQueries.DISABLE_ENDPOINT;
import static paynotify.store.SqlQueries.ENDPOINT_DISABLED;
import static paynotify.store.SqlQueries.EVENT_FAILED;
import static paynotify.store.SqlQueries.EVENT_RETRY_LATER;
import static paynotify.store.SqlQueries.FIND_FORWARD_EVENT;
import static paynotify.store.SqlQueries.FIND_FORWARD_EVENT_BY_ID;
import static paynotify.store.SqlQueries.FORWARD_BACKLOG;
import static paynotify.store.SqlQueries.REPLAY_EVENT;
import static paynotify.store.SqlQueries.eventsDelivered;
import static paynotify.store.SqlQueries.leaseEvents;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.Anomalies;
import paynotify.booking.Anomalies.Anomaly;
import paynotify.booking.AnomalyKind;
import paynotify.store.Database;

/**
 * Delivers the outbox (forward_events) to the site, at least once, on its own connections and HTTP
 * client: a site down or slow never holds a booking. Each round claims due events in a short
 * transaction (FOR UPDATE SKIP LOCKED, so instances do not wait on each other) and leases them to
 * this instance; the lease is committed before anything is sent, so no two instances send an event
 * at the same moment, and an instance that dies mid-send leaves a lease that expires and is taken
 * over. An answer 2xx within the timeout delivers the event; anything else is retried on the
 * schedule, and after the last try the event is failed and an anomaly says so.
 *
 * <p>One order's events reach the site one at a time, in the order they were written (a refund never
 * before the payment it refunds): a claim takes only the oldest undelivered event of each order, so
 * a batch holds at most one per order, and different orders are sent in parallel. The next event of
 * an order waits while the older one is leased (in flight here or on another instance), waits for its
 * retry, and stays behind it once it failed, until {@code forward retry} sends it again. Leases and
 * due times are UTC, so instances need not share {@code database.time_zone}.
 *
 * <p>The site's answer is read up to {@link #MAX_ANSWER_BYTES} and no further (the connection is
 * closed): only its status counts, and a site answering a huge body cannot grow the heap.
 */
public final class ForwardRelay {
  private static final Logger LOG = LoggerFactory.getLogger(ForwardRelay.class);
  /** Events claimed and sent at once, at most: the HTTP client's pool has as many connections. */
  static final int BATCH = 8;
  /** What is read of an answer's body at most; the receiver's answer is a word ("ok"). */
  static final int MAX_ANSWER_BYTES = 64 * 1024;
  private static final long BACKLOG_CACHE_MS = 5_000;
  /** The answers of a site that asks to be left alone a while (Standard Webhooks: throttle, honour Retry-After). */
  private static final Set<Integer> BACK_OFF = Set.of(429, 502, 503, 504);
  private static final long MAX_RETRY_AFTER_SECONDS = 86_400;
  /** Standard Webhooks: the endpoint was removed, stop sending to it. */
  private static final int GONE = 410;

  private final Vertx vertx;
  private final Database db;
  private final ForwardSettings settings;
  private final ForwardSignature signature;
  private final WebhookSignature webhookSignature;
  private final HttpClient http;
  /** This instance, as lease_owner. */
  private final String owner = UUID.randomUUID().toString();
  private volatile boolean stopped;
  private volatile Long timer;
  private volatile Future<Integer> round;
  private Future<Backlog> backlog;
  private long backlogAt;

  /**
   * Events waiting to be delivered, events given up on (forward retry), and whether the site's endpoint was
   * disabled by a 410 (forward enable).
   */
  public record Backlog(long pending, long failed, boolean disabled) {}

  private record Claimed(long id, String eventId, String type, String orderNo, byte[] body, int attempts) {}

  /** @param db a pool of its own (READ COMMITTED: its claims take no gap locks in bookings' way) */
  public ForwardRelay(Vertx vertx, Database db, ForwardSettings settings) {
    this.vertx = vertx;
    this.db = db;
    this.settings = settings;
    this.signature = new ForwardSignature(settings.secret());
    this.webhookSignature = new WebhookSignature(settings.secrets());
    int timeout = (int) settings.timeout().toMillis();
    this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(timeout)
        .setIdleTimeout(timeout).setIdleTimeoutUnit(TimeUnit.MILLISECONDS), new PoolOptions().setHttp1MaxSize(BATCH));
  }

  /**
   * Runs a round every {@code periodMs}, never two at once; after a full batch the next one at once,
   * so that a backlog (a burst of payments, the site back up after downtime) drains at full speed.
   */
  public void start(long periodMs) {
    timer = vertx.setTimer(periodMs, id -> {
      Future<Integer> next;
      try {
        next = runOnce();
      } catch (RuntimeException e) { // never the end of the timer
        next = Future.failedFuture(e);
      }
      round = next;
      next.onFailure(err -> LOG.warn("forward: round failed, next one tries again: {}", err.getMessage()))
          .onComplete(ar -> {
            if (!stopped) {
              start(ar.succeeded() && ar.result() == BATCH ? 1 : periodMs);
            }
          });
    });
  }

  /**
   * Claims the due events and sends them; completes when their outcomes are written: the delivered
   * ones in one statement, each failure on its own (the rare case).
   */
  public Future<Integer> runOnce() {
    return claim().compose(claimed -> {
      List<Future<Void>> sent = claimed.stream().map(this::send).toList();
      return Future.join(sent).transform(all -> {
        List<Long> delivered = new ArrayList<>();
        List<Future<Void>> written = new ArrayList<>();
        for (int i = 0; i < claimed.size(); i++) {
          if (sent.get(i).succeeded()) {
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
   * Sends an event again (the admin's replay), delivered or failed, with its id and bytes: {@code replayed} and
   * its state after; null when there is no such event ({@code id}: the row's number, or its evt_ id).
   */
  public Future<JsonObject> replay(String id) {
    boolean number = id.matches("\\d{1,18}");
    return db.inTransaction(conn -> conn.preparedQuery(number ? FIND_FORWARD_EVENT : FIND_FORWARD_EVENT_BY_ID)
        .execute(Tuple.of(number ? Long.parseLong(id) : id)).compose(found -> {
          if (found.size() == 0) {
            return Future.succeededFuture(null);
          }
          long row = found.iterator().next().getLong("id");
          return conn.preparedQuery(REPLAY_EVENT).execute(Tuple.of(row)).map(replayed -> new JsonObject()
              .put("event", id).put("replayed", replayed.rowCount() == 1)
              .put("state", replayed.rowCount() == 1 ? "pending" : found.iterator().next().getString("state")));
        }));
  }

  /** Pending and failed events, read at most every few seconds (the /health endpoint asks often). */
  public synchronized Future<Backlog> backlog() {
    long now = System.currentTimeMillis();
    if (backlog == null || now - backlogAt > BACKLOG_CACHE_MS || backlog.failed()) {
      backlogAt = now;
      backlog = db.inTransaction(conn -> conn.query(FORWARD_BACKLOG).execute()).map(rows -> {
        long pending = 0;
        long failed = 0;
        boolean disabled = false;
        for (Row r : rows) {
          switch (r.getString(0)) {
            case "pending" -> pending = r.getLong(1);
            case "failed" -> failed = r.getLong(1);
            default -> disabled = true;
          }
        }
        return new Backlog(pending, failed, disabled);
      });
    }
    return backlog;
  }

  /**
   * Stops after the round in flight, if any, has written its outcomes (bounded by the timeout): an
   * attempt cut by the stop would count as failed, and could fail an event the site was accepting.
   */
  public Future<Void> stop() {
    stopped = true;
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
    Future<Integer> inFlight = round == null ? Future.succeededFuture(0) : round;
    return inFlight.timeout(settings.timeout().toMillis() + 2_000, TimeUnit.MILLISECONDS).<Void>mapEmpty().otherwiseEmpty()
        .eventually(http::close).eventually(db::close);
  }

  /** The due events, leased to this instance; none while the endpoint is disabled (a 410, until forward enable). */
  private Future<List<Claimed>> claim() {
    return db.inTransaction(conn -> conn.query(ENDPOINT_DISABLED).execute().compose(disabled -> disabled.size() > 0
        ? Future.succeededFuture(List.of())
        : conn.preparedQuery(CLAIM_DUE_EVENTS).execute(Tuple.of(BATCH)).compose(rows -> {
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
    RequestOptions request = new RequestOptions().setMethod(HttpMethod.POST)
        .setAbsoluteURI(settings.url().toString())
        .setConnectTimeout(settings.timeout().toMillis()) // also bounds the wait for a pooled connection
        .setIdleTimeout(settings.timeout().toMillis())
        .putHeader("Content-Type", "application/json")
        .putHeader("User-Agent", "paynotify")
        .putHeader("Paynotify-Event-Id", event.eventId())
        .putHeader("Paynotify-Signature", signature.header(now, event.body()))
        .putHeader(WebhookSignature.ID, event.eventId())
        .putHeader(WebhookSignature.TIMESTAMP, Long.toString(now))
        .putHeader(WebhookSignature.SIGNATURE, webhookSignature.header(event.eventId(), now, event.body()));
    AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
    return http.request(request)
        .compose(req -> {
          sent.set(req);
          return req.send(Buffer.buffer(event.body()));
        })
        .compose(ForwardRelay::answer)
        .timeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
        .onFailure(err -> { // a timed-out attempt is ended, never left to overlap with its retry
          HttpClientRequest req = sent.get();
          if (req != null) {
            req.reset();
          }
        })
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
      super("the site answered HTTP " + answer.status() + (answer.retryAfterSeconds() > 0 ? " (Retry-After "
          + answer.retryAfterSeconds() + " s)" : ""), null, false, false);
      this.answer = answer;
    }
  }

  /**
   * The answer once its body has ended, or once {@link #MAX_ANSWER_BYTES} of it were read: then the rest is not
   * read, the connection is closed instead (reset) and not reused.
   */
  private static Future<Answer> answer(HttpClientResponse resp) {
    Answer answer = new Answer(resp.statusCode(), BACK_OFF.contains(resp.statusCode())
        ? retryAfter(resp.getHeader("Retry-After")) : 0);
    Promise<Answer> answered = Promise.promise();
    AtomicLong read = new AtomicLong();
    resp.exceptionHandler(answered::tryFail);
    resp.handler(chunk -> {
      if (read.addAndGet(chunk.length()) > MAX_ANSWER_BYTES && answered.tryComplete(answer)) {
        resp.request().reset();
      }
    });
    resp.endHandler(end -> answered.tryComplete(answer));
    return answered.future();
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
    String what = "forward: event " + event.eventId() + " (" + event.type() + ", order " + event.orderNo() + ")";
    if (cause instanceof NotAccepted refused && refused.answer.status() == GONE) {
      return gone(event, what, error);
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
   * The site's endpoint answered 410 Gone (Standard Webhooks: it was removed): no instance sends to it any more
   * until {@code forward enable}; the event stays pending, due at once then. The instance that disabled it
   * records the anomaly (its alert), once.
   */
  private Future<Void> gone(Claimed event, String what, String error) {
    LOG.error("{}: the site answered 410 Gone: nothing is sent to {} any more until paynotify forward enable",
        what, settings.url());
    String kind = AnomalyKind.FORWARD_ENDPOINT_GONE.code();
    String reason = "410 Gone for event " + event.eventId() + " (" + event.type() + ")";
    Anomaly anomaly = new Anomaly(kind, "forward", event.orderNo(), null, null, settings.url() + " answered " + reason
        + ": nothing is sent to it any more", kind + ":" + System.currentTimeMillis());
    return db.inTransaction(conn -> conn.preparedQuery(DISABLE_ENDPOINT).execute(Tuple.of(reason, reason))
        .compose(disabled -> conn.preparedQuery(EVENT_RETRY_LATER).execute(Tuple.of(0, error, event.id(), owner))
            .compose(v -> disabled.rowCount() > 0 ? Anomalies.recordUntold(conn, anomaly) : Future.succeededFuture())))
        .mapEmpty();
  }

  /** {@code seconds}, give or take 10%: the retries of many events failed at one moment do not come back at one. */
  private static long jittered(long seconds) {
    long spread = seconds / 10;
    return spread == 0 ? seconds : seconds - spread + ThreadLocalRandom.current().nextLong(2 * spread + 1);
  }

  /** Why an attempt failed, in a line (never the secret: it is in no request field but the signature). */
  private String reason(Throwable err) {
    String why = err instanceof TimeoutException || err.getClass().getSimpleName().contains("Timeout")
        ? "no answer within " + settings.timeout().toMillis() + " ms"
        : err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage();
    return why.length() > 400 ? why.substring(0, 400) : why;
  }
}
