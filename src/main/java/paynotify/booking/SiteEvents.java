package paynotify.booking;

import static paynotify.store.SqlQueries.REWRITE_FORWARD_EVENT;
import static paynotify.store.SqlQueries.SETTLED_REFUNDS;
import static paynotify.store.SqlQueries.insertForwardEvent;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;

/**
 * What the site is told (forward_events, the outbox), written in the very transaction that booked
 * it: a rolled-back booking tells nothing, a committed one is delivered by the relay however the
 * process ends. Each event's id is derived from what it tells (the booking's idempotency key, an
 * anomaly's dedupe key), so telling it again adds nothing and every delivery carries the same id.
 * Every event says whether it is live money ({@code livemode}: false for a platform's test mode). An event is
 * written once for each endpoint that wants its type (forward.endpoints), each row delivered on its own.
 */
public final class SiteEvents {
  public static final String PAYMENT_SUCCEEDED = "payment.succeeded";
  public static final String REFUND_SUCCEEDED = "refund.succeeded";
  public static final String ORDER_CLOSED = "order.closed";
  public static final String ANOMALY_CREATED = "anomaly.created";
  public static final Set<String> TYPES = Set.of(PAYMENT_SUCCEEDED, REFUND_SUCCEEDED, ORDER_CLOSED, ANOMALY_CREATED);

  /** Forwarding off: anomalies are recorded, nothing is told. */
  public static final SiteEvents OFF = new SiteEvents(Map.of());

  private static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);

  /** For each type some endpoint wants, the statement that writes its rows; built once. */
  private final Map<String, String> inserts = new HashMap<>();

  /** @param endpointsByType for each event type, the endpoints that want it (ForwardSettings.endpointsByType) */
  public SiteEvents(Map<String, List<String>> endpointsByType) {
    endpointsByType.forEach((type, endpoints) -> inserts.put(type, insertForwardEvent(endpoints)));
  }

  /**
   * payment.succeeded for the payment that moved its order, or found it already marked paid by this
   * very trade (another path of the site marked it): the site, which fulfils on the event, must hear of
   * it. Written as if no refund came before it (the rule); {@link #paymentRefunded} completes it when
   * the booking settled some.
   */
  Future<Void> payment(SqlConnection conn, NotifyEvent e) {
    return tells(PAYMENT_SUCCEEDED) ? conn.preparedQuery(inserts.get(PAYMENT_SUCCEEDED)).execute(payment(e, 0))
        .mapEmpty() : Future.succeededFuture();
  }

  /**
   * The payment.succeeded this booking wrote, completed with the refunds it settled (they came
   * first): {@code refunded_cents}, and {@code fulfil} false when they cover the payment, so that
   * the site does not deliver what was paid back. Never sent yet: this transaction wrote it.
   */
  Future<Void> paymentRefunded(SqlConnection conn, NotifyEvent e, long refundedCents) {
    if (!tells(PAYMENT_SUCCEEDED)) {
      return Future.succeededFuture();
    }
    Tuple row = payment(e, refundedCents);
    return conn.preparedQuery(REWRITE_FORWARD_EVENT).execute(Tuple.of(row.getString(3), row.getString(0))).mapEmpty();
  }

  private static Tuple payment(NotifyEvent e, long refundedCents) {
    JsonObject data = new JsonObject().put("order_no", e.orderNo()).put("channel", e.platform().code())
        .put("trade_no", e.tradeNo()).put("amount_cents", e.amountCents()).put("paid_at", time(e.paidAt()))
        .put("refunded_cents", refundedCents).put("fulfil", refundedCents < e.amountCents());
    if (e.detail() != null) { // beside the amount, what the platform says was paid (V免签's reallyPrice, a coin's)
      data.put("detail", new JsonObject(e.detail()));
    }
    return row(PAYMENT_SUCCEEDED, e.idempotencyKey(), e.orderNo(), !e.testMode(), data);
  }

  /** Whether some endpoint wants events of {@code type}. */
  public boolean tells(String type) {
    return inserts.containsKey(type);
  }

  /**
   * refund.succeeded for each settled refund of the trade not told yet (a settlement can settle
   * several: the ones that waited for their payment).
   *
   * @param refundedCents the trade's refunded total, as this settlement computed it
   * @param livemode      the trade's money is live (its refunds are of the same mode)
   */
  Future<Void> refundsSettled(SqlConnection conn, Platform platform, String tradeNo, String orderNo,
      long refundedCents, boolean livemode) {
    if (!tells(REFUND_SUCCEEDED)) {
      return Future.succeededFuture();
    }
    return conn.preparedQuery(SETTLED_REFUNDS).execute(Tuple.of(platform.code(), tradeNo)).compose(rows -> {
      List<Tuple> events = new ArrayList<>();
      long cumulativeBefore = 0; // Alipay's amounts are the trade's running totals: its own is the step
      for (Row r : rows) {
        long amount = r.getLong("amount_cents");
        boolean cumulative = ((Number) r.getValue("cumulative")).intValue() != 0;
        String scope = r.getString("refund_scope");
        String refundNo = r.getString("refund_no");
        JsonObject data = new JsonObject().put("order_no", orderNo).put("channel", platform.code())
            .put("trade_no", tradeNo).put("refund_no", refundNo)
            .put("amount_cents", cumulative ? amount - cumulativeBefore : amount)
            .put("refunded_total_cents", refundedCents).put("refunded_at", time(r.getLocalDateTime("refunded_at")))
            // false: a second payment refunded; the order was paid by another trade and keeps what it got
            .put("paid_the_order", ((Number) r.getValue("paid_the_order")).intValue() != 0);
        if (cumulative) {
          cumulativeBefore = amount;
        }
        String key = NotifyEvent.key(platform, EventKind.REFUND, (scope.isEmpty() ? "" : scope + ":") + refundNo);
        events.add(row(REFUND_SUCCEEDED, key, orderNo, livemode, data));
      }
      return events.isEmpty() ? Future.succeededFuture()
          : conn.preparedQuery(inserts.get(REFUND_SUCCEEDED)).executeBatch(events).mapEmpty();
    });
  }

  /**
   * order.closed: a closed trade closed its order, or recovery closed an order left unpaid too long (no
   * trade then: the event is named after the order, closed once).
   */
  public Future<Void> orderClosed(SqlConnection conn, NotifyEvent e) {
    if (!tells(ORDER_CLOSED)) {
      return Future.succeededFuture();
    }
    JsonObject data = new JsonObject().put("order_no", e.orderNo()).put("channel", e.platform().code())
        .put("trade_no", e.tradeNo());
    return conn.preparedQuery(inserts.get(ORDER_CLOSED))
        .execute(row(ORDER_CLOSED, e.tradeNo() != null ? e.idempotencyKey()
            : NotifyEvent.key(e.platform(), e.kind(), "order:" + e.orderNo()), e.orderNo(), !e.testMode(), data))
        .mapEmpty();
  }

  /**
   * Records the anomaly and has the site told of it, once like the anomaly itself (same dedupe key).
   *
   * @param livemode false when a test-mode notification's booking found it
   */
  public Future<Void> recordAnomaly(SqlConnection conn, Anomaly a, boolean livemode) {
    return Future.all(Anomalies.recordUntold(conn, a), anomalyCreated(conn, a, livemode)).mapEmpty();
  }

  /**
   * {@link #recordAnomaly}, unless a payment of its trade is booked: true when recorded (and told) now, false when
   * its trade is booked; fails with 1062 when it was recorded before.
   */
  Future<Boolean> recordAnomalyUnlessBooked(SqlConnection conn, Anomaly a, boolean livemode) {
    return Anomalies.recordUntoldUnlessBooked(conn, a).compose(recorded -> !recorded ? Future.succeededFuture(false)
        : anomalyCreated(conn, a, livemode).map(true));
  }

  /** anomaly.created, its id derived from the anomaly's dedupe key: told once like the anomaly itself. */
  private Future<Void> anomalyCreated(SqlConnection conn, Anomaly a, boolean livemode) {
    AnomalyKind kind = AnomalyKind.of(a.kind());
    if (!tells(ANOMALY_CREATED) || kind == AnomalyKind.FORWARD_FAILED) { // never tell of not telling
      return Future.succeededFuture();
    }
    JsonObject data = new JsonObject().put("kind", a.kind()).put("detail", a.detail())
        .put("action", kind == null ? null : kind.action()).put("order_no", a.orderNo()).put("channel", a.channel())
        .put("trade_no", a.tradeNo()).put("amount_cents", a.amountCents());
    return conn.preparedQuery(inserts.get(ANOMALY_CREATED))
        .execute(row(ANOMALY_CREATED, a.dedupeKey(), a.orderNo(), livemode, data)).mapEmpty();
  }

  /** event_id, type, order_no, body: the JSON the site gets, fixed now, the same at every attempt. */
  private static Tuple row(String type, String origin, String orderNo, boolean livemode, JsonObject data) {
    String id = eventId(type + ":" + origin);
    String created = OffsetDateTime.now(BEIJING).truncatedTo(ChronoUnit.SECONDS)
        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    // timestamp: the field Standard Webhooks names for it; created_at: what receivers read before it
    JsonObject body = new JsonObject().put("id", id).put("type", type).put("livemode", livemode)
        .put("created_at", created).put("timestamp", created).put("data", data);
    return Tuple.of(id, type, orderNo, body.encode());
  }

  /** {@code evt_} and 32 hex digits of the SHA-256 of what the event tells: stable, opaque, fixed length. */
  static String eventId(String origin) {
    return "evt_" + Fingerprint.sha256Hex(origin).substring(0, 32);
  }

  /** A platform time (Beijing wall clock) with its offset, or null. */
  private static String time(LocalDateTime beijing) {
    return beijing == null ? null : beijing.atOffset(BEIJING).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }
}
