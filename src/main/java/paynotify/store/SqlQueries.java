package paynotify.store;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The service's statements, in one place so they can be read and reviewed as SQL: every write to
 * paynotify's own tables, and the reads that go with them. The races are decided here, by unique keys
 * and conditional updates, never by a prior SELECT; each such statement says beside it which race it
 * closes.
 *
 * <p>The other holders of SQL, each apart for a reason:
 * <ul>
 *   <li>{@link OrdersTable}: the site's orders table, in the names its mapping gives (built at start,
 *       quoted). It writes, and its conditional UPDATEs decide layer 3: an order moves only once.
 *   <li>{@code reconcile.ReconcileSql}: reconciliation and the duplicate audit. Reads our tables, writes
 *       only the session's temporary tables; its findings are recorded with {@link #INSERT_ANOMALY}.
 *   <li>{@code admin.StatusReport}: the status page. Reads only.
 *   <li>{@code setup.migrate.OrdersTableCheck}: the site's table checked at start. Reads only
 *       (information_schema, and a bounded sample of the table).
 *   <li>{@code doctor.DatabaseClock}: {@code SELECT NOW(6)}, the database's clock for {@code paynotify doctor}.
 *       No table.
 *   <li>The sessions' own statements (SET SESSION, COMMIT, KILL): {@link Database}, {@link CommittedReads},
 *       {@link GaleraSessions}, {@code cli.CliDatabase}. No data.
 * </ul>
 * The schema is Flyway's, in {@code migrations/}.
 */
public final class SqlQueries {
  private SqlQueries() {}

  // Layer 1, the business key. A concurrent copy blocks on this row until the first transaction
  // ends: 1062 after its COMMIT, success after its ROLLBACK (so a failed attempt leaves no key).
  public static final String INSERT_KEY =
      "INSERT INTO idempotent_keys (idem_key, fingerprint) VALUES (?, ?)";

  public static final String SELECT_KEY_FINGERPRINT =
      "SELECT fingerprint FROM idempotent_keys WHERE idem_key = ?";

  // A refund that finds no payment holds its payment's key (<platform>:pay:<trade>) with this fingerprint,
  // which no event has (a SHA-256 in hex): the payment's INSERT_KEY then fails as a repeat's does, and its
  // booking, seeing this value, claims the key and settles the refunds waiting. So a payment without refunds
  // waiting (nearly all) learns it by the insert it runs anyway. The key row decides the race between the
  // two whatever the isolation level: a refund and its payment each wait for the other's key write.
  public static final String REFUNDS_WAITING = "refunds-waiting";

  // Binds: the payment's key. 1 row: held now; 0: a key is there (another refund's, or the payment's).
  public static final String HOLD_KEY_FOR_REFUNDS =
      "INSERT INTO idempotent_keys (idem_key, fingerprint) VALUES (?, '" + REFUNDS_WAITING + "')"
          + " ON DUPLICATE KEY UPDATE idem_key = idem_key";

  // The payment's booking takes the key a refund held: 1 row, or 0 when another copy took it first (it
  // waited on the row until that one committed). Its retention starts now, as an inserted key's does.
  // Binds: fingerprint, key.
  public static final String CLAIM_KEY_FROM_REFUNDS = "UPDATE idempotent_keys SET fingerprint = ?, created_at = NOW(3)"
      + " WHERE idem_key = ? AND fingerprint = '" + REFUNDS_WAITING + "'";

  // A held key whose refunds were settled beside a payment booked another way (StrandedRefunds): no
  // payment will claim it. Binds: the payment's key.
  public static final String RELEASE_HELD_KEY =
      "DELETE FROM idempotent_keys WHERE idem_key = ? AND fingerprint = '" + REFUNDS_WAITING + "'";

  // A payment a platform says was refunded since (paid_then_refunded), in its anomaly's transaction: its key,
  // with the fingerprint its booking would write, so that its notification, retried later, is a duplicate and
  // books nothing; a key its refunds held is taken too (2 rows, its retention starting now: created_at is
  // set before fingerprint, which it reads). A key there already (booked meanwhile, taken before) stays
  // (0 rows); a booking racing it waits on the row, as a second copy does. Binds: key, fingerprint, fingerprint.
  public static final String TAKE_KEY =
      "INSERT INTO idempotent_keys (idem_key, fingerprint) VALUES (?, ?) ON DUPLICATE KEY UPDATE"
          + " created_at = IF(fingerprint = '" + REFUNDS_WAITING + "', NOW(3), created_at),"
          + " fingerprint = IF(fingerprint = '" + REFUNDS_WAITING + "', ?, fingerprint)";

  // Layer 2, one row per platform trade (uk_trade_no); still guards after the key is purged. Sent once
  // the order's UPDATE answered: moved_order, whether that moved the order, needs no statement of its own.
  // (ROW_COUNT() here, to send both at once, reads -1 when the client prepares this statement between them.)
  public static final String INSERT_PAYMENT =
      "INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at, detail, moved_order)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?)";

  public static final String SELECT_PAYMENT =
      "SELECT order_no, amount_cents FROM payments WHERE channel = ? AND trade_no = ?";

  // Layer 3, the order moves unpaid -> paid once: the site's table, in its own names (OrdersTable).
  // The payment that moved its order says so (moved_order), so a table without trade columns still
  // tells which trade paid an order.
  public static final String SELECT_PAYMENT_THAT_MOVED_ORDER =
      "SELECT channel, trade_no FROM payments WHERE order_no = ? AND moved_order ORDER BY id LIMIT 1";

  // The order was found marked paid by this very trade outside paynotify (the old notify.php).
  public static final String SET_PAYMENT_MOVED_ORDER =
      "UPDATE payments SET moved_order = TRUE WHERE channel = ? AND trade_no = ?";

  // Refunds: uk_refund_no is their second layer. The payment row, locked, serialises every refund
  // of a trade with its payment, so each settlement sees the ones committed before it.
  // uk_refund_no (channel, refund_scope, refund_no): refund_scope is the trade where the platform's
  // refund ids are unique only within it (Alipay's out_biz_no), '' where they are global (WeChat).
  public static final String INSERT_REFUND =
      "INSERT INTO refunds (channel, refund_scope, refund_no, trade_no, order_no, amount_cents, cumulative, status,"
          + " refunded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

  public static final String SELECT_REFUND =
      "SELECT trade_no, amount_cents FROM refunds WHERE channel = ? AND refund_scope = ? AND refund_no = ?";

  public static final String LOCK_PAYMENT =
      "SELECT order_no, amount_cents FROM payments WHERE channel = ? AND trade_no = ? FOR UPDATE";

  // Booking a payment whose key its refunds held settles them, in the same transaction.
  public static final String SETTLE_PENDING_REFUNDS =
      "UPDATE refunds SET status = 'settled' WHERE channel = ? AND trade_no = ? AND status = 'pending'";

  // Refunded so far: own amounts add up; cumulative ones (Alipay) are already totals, so the largest wins.
  private static final String REFUNDED_SUM = "SELECT COALESCE(SUM(CASE WHEN cumulative THEN 0 ELSE amount_cents END), 0)"
      + " + COALESCE(MAX(CASE WHEN cumulative THEN amount_cents END), 0) FROM refunds";

  // A locking read: it sees every settlement committed before this transaction took the payment lock.
  public static final String REFUNDED_TOTAL =
      REFUNDED_SUM + " WHERE channel = ? AND trade_no = ? AND status = 'settled' FOR UPDATE";

  // What booking a trade's payment would settle (repair book's dry run): its pending refunds, and their total.
  public static final String PENDING_REFUNDS =
      "SELECT refund_no, amount_cents, cumulative FROM refunds WHERE channel = ? AND trade_no = ? AND status = 'pending'"
          + " ORDER BY amount_cents, id";

  public static final String PENDING_REFUNDED_TOTAL =
      REFUNDED_SUM + " WHERE channel = ? AND trade_no = ? AND status = 'pending'";

  // The order only moves forward (paid -> partially_refunded -> refunded), and only the order this
  // trade paid: OrdersTable.markRefunded.

  // Refunds left pending although their payment is booked: the hourly check settles them.
  public static final String TRADES_WITH_STRANDED_REFUNDS =
      "SELECT DISTINCT r.channel, r.trade_no FROM refunds r"
          + " JOIN payments p ON p.channel = r.channel AND p.trade_no = r.trade_no"
          + " WHERE r.status = 'pending' LIMIT ?";

  // One trade's refunds left pending beside its booked payment (on Galera, a refund and its payment booked
  // at once on two nodes: StrandedRefunds).
  public static final String TRADE_HAS_STRANDED_REFUNDS =
      "SELECT 1 FROM refunds r JOIN payments p ON p.channel = r.channel AND p.trade_no = r.trade_no"
          + " WHERE r.channel = ? AND r.trade_no = ? AND r.status = 'pending' LIMIT 1";

  // A refund still waiting for its payment after the retention: the payment was lost (or never was).
  // Binds: the anomaly kind (twice: kind and dedupe key), the retention in seconds.
  public static final String FLAG_STALE_PENDING_REFUNDS =
      "INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key)"
          + " SELECT ?, channel, order_no, trade_no, amount_cents,"
          + " CONCAT('refund ', refund_no, ' of trade ', trade_no, ' still waits for its payment: check the bill'),"
          + " CONCAT_WS(':', ?, channel, NULLIF(refund_scope, ''), refund_no)"
          + " FROM refunds WHERE status = 'pending' AND created_at < NOW(3) - INTERVAL ? SECOND"
          + " AND NOT EXISTS (SELECT 1 FROM payments p"
          + "   WHERE p.channel = refunds.channel AND p.trade_no = refunds.trade_no)"
          + " ON DUPLICATE KEY UPDATE anomalies.kind = anomalies.kind";

  // The open anomalies of a kind older than some seconds, to be told to the site (told once: the event's
  // id is the anomaly's dedupe key). Binds: the kind, the seconds.
  public static final String OPEN_ANOMALIES_OF_KIND =
      "SELECT kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key FROM anomalies"
          + " WHERE kind = ? AND resolved_at IS NULL AND created_at <= NOW(3) - INTERVAL ? SECOND";

  // A payment that names no order (a Stripe PaymentIntent without metadata.order_no; a paid order in Lemon
  // Squeezy's list, which carries no custom data): an anomaly only while no payment of its trade is booked, since
  // its Checkout Session (its order_created webhook), the same trade, usually books it; nor once its key was taken
  // without a booking (TAKE_KEY: recovery found it paid, then refunded, and told a human of that money already). A key
  // held for refunds waiting is no payment. It is told later (OrderlessPaymentCheck). A locking read: it waits for a
  // Session booking the trade right now (written in a booking's order, the key first; a deadlock is retried, as any).
  // Binds: kind, channel, trade, amount, detail, dedupe key, the payment's key, channel, trade.
  public static final String RECORD_PAYMENT_WITHOUT_ORDER =
      "INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key)"
          + " SELECT ?, ?, NULL, ?, ?, ?, ? FROM DUAL"
          + " WHERE NOT EXISTS (SELECT 1 FROM idempotent_keys WHERE idem_key = ? AND fingerprint <> '"
          + REFUNDS_WAITING + "')"
          + " AND NOT EXISTS (SELECT 1 FROM payments WHERE channel = ? AND trade_no = ?)";

  // ... resolved at once when its Checkout Session books the trade (a booking of its own, after the
  // payment's commit; what it misses, the statement below catches); so is the booking_failed of a missed
  // event of that trade that recovery gave up on (Stripe's own retry booked it since). Binds: the two
  // anomalies' dedupe keys.
  public static final String RESOLVE_WITHOUT_ORDER =
      "UPDATE anomalies SET resolved_at = NOW(3), resolution_note = 'its trade was booked since, by a notification"
          + " naming the order' WHERE dedupe_key IN (?, ?) AND resolved_at IS NULL";

  // ... resolved once a notification naming the order booked its trade (OrderlessPaymentCheck). Binds: the note, the
  // kind.
  public static final String RESOLVE_BOOKED_OF_KIND =
      "UPDATE anomalies SET resolved_at = NOW(3), resolution_note = ?"
          + " WHERE kind = ? AND resolved_at IS NULL AND EXISTS (SELECT 1 FROM payments p"
          + "   WHERE p.channel = anomalies.channel AND p.trade_no = anomalies.trade_no)";

  // A signed payment's wait for its confirmation whose trade was booked, for the same order and amount, where nothing
  // resolved it: a booking on another Galera node certified beside the wait's insert (BookedWaitCheck). A trade booked
  // otherwise than the notification said stays open for a human. Binds: the note, the kind.
  public static final String RESOLVE_CONFIRMED_WAITS =
      "UPDATE anomalies SET resolved_at = NOW(3), resolution_note = ?"
          + " WHERE kind = ? AND resolved_at IS NULL AND EXISTS (SELECT 1 FROM payments p"
          + "   WHERE p.channel = anomalies.channel AND p.trade_no = anomalies.trade_no"
          + "   AND p.order_no = anomalies.order_no AND p.amount_cents = anomalies.amount_cents)";

  // A signed payment its platform's order query did not confirm (confirm_before_book), kept while it waits: only while
  // no payment of its trade is booked, so that a redelivery of a booked one is taken as the repeat it is, not as a
  // wait. Under REPEATABLE READ the NOT EXISTS is a locking read (it waits for a booking of the trade in flight);
  // under READ COMMITTED it reads what is committed. Recording it again is the dedupe key's 1062 (a wait already
  // kept). Binds: kind, channel, order, trade, amount, detail, dedupe key, channel, trade.
  public static final String RECORD_ANOMALY_UNLESS_BOOKED =
      "INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key)"
          + " SELECT ?, ?, ?, ?, ?, ?, ? FROM DUAL"
          + " WHERE NOT EXISTS (SELECT 1 FROM payments WHERE channel = ? AND trade_no = ?)";

  // The signed payment of a trade that waits for its platform's confirmation (its dedupe key names the trade), while
  // open: what an unsigned "paid" of the trade is compared with. Binds: the dedupe key.
  public static final String WAITING_FOR_CONFIRMATION =
      "SELECT order_no, amount_cents FROM anomalies WHERE dedupe_key = ? AND resolved_at IS NULL";

  // The trades of an order whose signed payments wait so, newest first: what a platform asked by its own trade id
  // only (TokenPay) is asked about. Open anomalies are few (idx_anomalies_open). Binds: kind, channel, order, limit.
  public static final String TRADES_WAITING_FOR_CONFIRMATION =
      "SELECT trade_no FROM anomalies WHERE resolved_at IS NULL AND kind = ? AND channel = ? AND order_no = ?"
          + " ORDER BY id DESC LIMIT ?";

  // ... resolved once its trade is booked, by whichever came first: the redelivery confirmed, or the sweeper's
  // question. Binds: the note, the dedupe key.
  public static final String RESOLVE_ANOMALY_OF_KEY =
      "UPDATE anomalies SET resolved_at = NOW(3), resolution_note = ? WHERE dedupe_key = ? AND resolved_at IS NULL";

  // Recording the same finding twice (a conflicting copy delivered again) adds nothing.
  public static final String INSERT_ANOMALY =
      "INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE id = id";

  // The outbox (forward_events): an event for the site, written in the transaction that booked what
  // it tells, one row per endpoint that wants its type (the names are checked to be [a-z0-9_-]). Its
  // event_id names what it tells, so telling it again adds no row. Its due time and lease are UTC
  // (UTC_TIMESTAMP), whatever each instance's database.time_zone: one clock for all (created_at and
  // delivered_at stay in the session's zone: shown, and purged days later). Binds: event_id, type, order_no, body.
  public static String insertForwardEvent(List<String> endpoints) {
    return "INSERT INTO forward_events (event_id, type, order_no, body, endpoint, next_attempt_at)"
        + " SELECT ?, ?, ?, ?, e.name, UTC_TIMESTAMP(3) FROM " + names(endpoints) + " e"
        + " ON DUPLICATE KEY UPDATE forward_events.id = forward_events.id";
  }

  /** The endpoints' names as a table of one column, name. */
  private static String names(List<String> endpoints) {
    return endpoints.stream().map(name -> "SELECT '" + name + "' AS name")
        .collect(Collectors.joining(" UNION ALL ", "(", ")"));
  }

  // A payment.succeeded completed by its own booking once the refunds it settled are known (every
  // endpoint's row); nobody else sees the rows before that booking commits. Binds: body, event_id.
  public static final String REWRITE_FORWARD_EVENT = "UPDATE forward_events SET body = ? WHERE event_id = ?";

  // A trade's settled refunds, each told once (refund.succeeded): cumulative amounts in ascending order.
  // paid_the_order: whether the refunded trade is the one that paid its order (not a second payment).
  public static final String SETTLED_REFUNDS =
      "SELECT r.refund_scope, r.refund_no, r.amount_cents, r.cumulative, r.refunded_at, p.moved_order AS paid_the_order"
          + " FROM refunds r JOIN payments p ON p.channel = r.channel AND p.trade_no = r.trade_no"
          + " WHERE r.channel = ? AND r.trade_no = ? AND r.status = 'settled' ORDER BY r.amount_cents, r.id";

  // The relay, on its own READ COMMITTED sessions (no gap locks in the way of bookings' inserts).
  // Claim, for one endpoint: due rows no other instance holds, skipped if another claim has them
  // locked right now, and only the oldest undelivered event of each order: the next one waits until
  // it is delivered (a lease held, a retry scheduled, an event failed until `forward retry`), so one
  // order's events reach the endpoint one at a time, in order. The subquery is a plain read (SKIP
  // LOCKED is not its): an older event locked by another instance's claim still holds the later ones
  // back. Other endpoints' rows hold nothing back. Binds: the endpoint, how many.
  public static final String CLAIM_DUE_EVENTS =
      "SELECT id, event_id, type, order_no, body, attempts FROM forward_events f WHERE state = 'pending'"
          + " AND endpoint = ?"
          + " AND next_attempt_at <= UTC_TIMESTAMP(3) AND (lease_until IS NULL OR lease_until < UTC_TIMESTAMP(3))"
          + " AND NOT EXISTS (SELECT 1 FROM forward_events older WHERE older.order_no = f.order_no AND older.id < f.id"
          + "   AND older.endpoint = f.endpoint AND older.state IN ('pending', 'failed'))"
          + " ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED";

  // ... and lease them, committed before anything is sent. Binds: owner, lease in ms, the ids.
  public static String leaseEvents(int ids) {
    return "UPDATE forward_events SET lease_owner = ?, lease_until = UTC_TIMESTAMP(3) + INTERVAL ? * 1000 MICROSECOND"
        + " WHERE id IN (" + "?, ".repeat(ids - 1) + "?)";
  }

  // The outcome of an attempt, written only while this instance still holds the lease. Binds: owner, the ids.
  public static String eventsDelivered(int ids) {
    return "UPDATE forward_events SET state = 'delivered', delivered_at = NOW(3), attempts = attempts + 1,"
        + " lease_owner = NULL, lease_until = NULL, last_error = NULL WHERE lease_owner = ? AND id IN ("
        + "?, ".repeat(ids - 1) + "?)";
  }

  // Binds: seconds until the next attempt, the error, id, owner.
  public static final String EVENT_RETRY_LATER =
      "UPDATE forward_events SET attempts = attempts + 1, next_attempt_at = UTC_TIMESTAMP(3) + INTERVAL ? SECOND,"
          + " lease_owner = NULL, lease_until = NULL, last_error = ? WHERE id = ? AND lease_owner = ?";

  public static final String EVENT_FAILED =
      "UPDATE forward_events SET state = 'failed', attempts = attempts + 1, lease_owner = NULL, lease_until = NULL,"
          + " last_error = ? WHERE id = ? AND lease_owner = ?";

  // An endpoint's state (forward_endpoints), read before each of its claims. Binds: the endpoint.
  public static final String ENDPOINT_DISABLED =
      "SELECT disabled_reason FROM forward_endpoints WHERE name = ? AND disabled_at IS NOT NULL";

  // A 410 Gone, or answers 4xx in a row, stop an endpoint's deliveries, on every instance; the first to see it
  // sets the reason, and the row count (0 when it was disabled already) says who records the anomaly. The
  // reason is assigned first, while disabled_at is still the old one. Binds: the endpoint, the reason, twice.
  public static final String DISABLE_ENDPOINT = "INSERT INTO forward_endpoints (name, disabled_at, disabled_reason)"
      + " VALUES (?, NOW(3), ?) ON DUPLICATE KEY UPDATE disabled_reason = IF(disabled_at IS NULL, ?,"
      + " disabled_reason), disabled_at = IFNULL(disabled_at, NOW(3))";

  // Whether a name is an endpoint's that events or a disabled state were written for (forward replay and enable
  // --endpoint, for a name no longer configured). Binds: the name, twice.
  public static final String ENDPOINT_KNOWN = "SELECT 1 FROM forward_events WHERE endpoint = ?"
      + " UNION SELECT 1 FROM forward_endpoints WHERE name = ? LIMIT 1";

  // forward enable: the row count says how many were disabled. Binds: the endpoint or NULL (all), twice.
  public static final String ENABLE_ENDPOINTS = "UPDATE forward_endpoints SET disabled_at = NULL,"
      + " disabled_reason = NULL WHERE (? IS NULL OR name = ?) AND disabled_at IS NOT NULL";

  // Per endpoint: its pending and failed events, and whether it is disabled (and why).
  public static final String FORWARD_BACKLOG =
      "SELECT endpoint, state, COUNT(*), NULL FROM forward_events WHERE state IN ('pending', 'failed')"
          + " GROUP BY endpoint, state"
          + " UNION ALL SELECT name, 'disabled', 1, disabled_reason FROM forward_endpoints WHERE disabled_at IS NOT NULL";

  // Delivered events past their retention: found by a plain read, then deleted by primary key, so the
  // DELETE locks those rows only. A range DELETE on delivered_at would lock the gap where every new
  // event (delivered_at NULL) is inserted, and hold bookings up for the length of each batch.
  public static final String EXPIRED_DELIVERED_EVENTS =
      "SELECT id FROM forward_events WHERE state = 'delivered' AND delivered_at < NOW(3) - INTERVAL ? SECOND LIMIT ?";

  public static String deleteEvents(int ids) {
    return "DELETE FROM forward_events WHERE state = 'delivered' AND id IN (" + "?, ".repeat(ids - 1) + "?)";
  }

  // notify_log rows are written in batches: this prefix, then one row of placeholders per line. A
  // refused request keeps no body (anyone can send one): its size, SHA-256 and a printable prefix.
  public static final String INSERT_NOTIFY_LOG = "INSERT INTO notify_log (channel, remote_addr, outcome, idem_key,"
      + " detail, body_bytes, raw_body, body_sha256, body_prefix) VALUES ";

  public static final String NOTIFY_LOG_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";

  // Purges delete in bounded batches so that no statement holds locks for long.
  // A key held for refunds stays until its payment comes: what tells that payment they are waiting.
  public static final String PURGE_KEYS = "DELETE FROM idempotent_keys WHERE created_at < NOW(3) - INTERVAL ? SECOND"
      + " AND fingerprint <> '" + REFUNDS_WAITING + "' LIMIT ?";

  public static final String PURGE_NOTIFY_LOG =
      "DELETE FROM notify_log WHERE received_at < NOW(3) - INTERVAL ? SECOND LIMIT ?";

  // Refused requests' rows go sooner (retention.rejected_days): the newest row older than that
  // bounds them by id (ids grow with received_at), so each batch is a range of idx_notify_log_outcome
  // (outcome, id) that stops there, not a scan of every rejected row for its age.
  public static final String LAST_ID_RECEIVED_BEFORE =
      "SELECT id FROM notify_log WHERE received_at < NOW(3) - INTERVAL ? SECOND ORDER BY received_at DESC LIMIT 1";

  public static final String PURGE_REJECTED =
      "DELETE FROM notify_log WHERE outcome = 'rejected' AND id <= ? ORDER BY id LIMIT ?";

  public static final String PING = "SELECT 1";

  // WriteRefusals' probe, rolled back: does the database take a write that needs new space? Its body (60 KB, bound
  // by the caller) wants pages of its own: refused, it shows a full disk (1114) or a read-only server (1290); taken,
  // only that notify_log found room (a booking's pages may not: it never ends a disk-full episode). Nobody reads the
  // row: it never commits. Binds: body_bytes, raw_body.
  public static final String WRITE_PROBE =
      "INSERT INTO notify_log (channel, outcome, body_bytes, raw_body) VALUES ('probe', 'probe', ?, ?)";

  // The operator's view of anomalies (command line).
  public static final String LIST_ANOMALIES =
      "SELECT id, created_at, kind, channel, order_no, trade_no, amount_cents, detail, resolved_at, resolution_note"
          + " FROM anomalies WHERE (? = FALSE OR resolved_at IS NULL) AND (? IS NULL OR kind = ?)"
          + " ORDER BY id LIMIT ?";

  public static final String RESOLVE_ANOMALY =
      "UPDATE anomalies SET resolved_at = NOW(3), resolution_note = ? WHERE id = ? AND resolved_at IS NULL";

  public static final String COUNT_OPEN_ANOMALIES = "SELECT COUNT(*) FROM anomalies WHERE resolved_at IS NULL";

  public static final String ANOMALY_EXISTS = "SELECT resolved_at FROM anomalies WHERE id = ?";

  // The operator's view of the outbox (forward list, forward retry). next_attempt_at is UTC (the
  // relay's one clock), shown in the session's zone like every other time.
  private static final String NEXT_ATTEMPT =
      "CONVERT_TZ(next_attempt_at, '+00:00', @@session.time_zone) AS next_attempt_at";

  public static final String LIST_FORWARD_EVENTS =
      "SELECT id, event_id, endpoint, type, order_no, state, attempts, " + NEXT_ATTEMPT + ", delivered_at, last_error"
          + " FROM forward_events WHERE (? = FALSE OR state = 'failed') AND (? IS NULL OR order_no = ?)"
          + " ORDER BY id DESC LIMIT ?";

  public static final String FIND_FORWARD_EVENT =
      "SELECT id, endpoint, state, attempts, " + NEXT_ATTEMPT + " FROM forward_events WHERE id = ?";

  // An evt_ id names the event's row for each endpoint: the oldest first. Binds: the event_id.
  public static final String FORWARD_EVENT_ID = "SELECT id FROM forward_events WHERE event_id = ? ORDER BY id";

  // Binds: the event_id; the endpoint or NULL (any), twice.
  public static final String FIND_FORWARD_EVENT_BY_ID = "SELECT id, endpoint, state, attempts, " + NEXT_ATTEMPT
      + " FROM forward_events WHERE event_id = ? AND (? IS NULL OR endpoint = ?) ORDER BY id";

  // Requeue races a second run and the relay: a requeued event is pending, and a relay may lease it
  // at once. Only a failed event moves, so a late run neither clears that lease nor resets its
  // attempts, and the row count says whether it moved. The lease is cleared so that any instance
  // may claim it at once.
  private static final String REQUEUE = "UPDATE forward_events SET state = 'pending', attempts = 0,"
      + " next_attempt_at = UTC_TIMESTAMP(3), lease_owner = NULL, lease_until = NULL";

  public static final String REQUEUE_ALL_FAILED_EVENTS = REQUEUE + " WHERE state = 'failed'";

  // ... one of them. Binds: the id.
  public static final String REQUEUE_FAILED_EVENT = REQUEUE_ALL_FAILED_EVENTS + " AND id = ?";

  // Replay (forward replay, the admin's POST /forward/events/:id/replay): events the site got, or that were
  // given up on, sent again with the same id and bytes (the site dedupes on the id). A pending one is left
  // alone: it is being sent anyway, perhaps leased right now. Binds: the endpoint or NULL (every one), twice;
  // then the row's id; the event_id; the order; the created_at range.
  private static final String REPLAY = REQUEUE + ", delivered_at = NULL, last_error = NULL"
      + " WHERE state IN ('delivered', 'failed') AND (? IS NULL OR endpoint = ?)";

  public static final String REPLAY_EVENT = REPLAY + " AND id = ?";

  public static final String REPLAY_EVENT_ID = REPLAY + " AND event_id = ?";

  public static final String REPLAY_ORDER_EVENTS = REPLAY + " AND order_no = ?";

  public static final String REPLAY_EVENTS_CREATED = REPLAY + " AND created_at >= ? AND created_at < ?";

  // The recovery sweeper's order checks (recovery.Sweeper, and a check's: recovery.OrderCheck), held through
  // store.Lease. An unpaid order seen for the first time gets its row, due now; a second instance inserting it at
  // the same moment adds nothing. Binds: the order.
  public static final String ADD_ORDER_CHECK = "INSERT IGNORE INTO order_checks (order_no, next_check_at, created_at)"
      + " VALUES (?, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))";

  // Two instances asking about one order at once: whoever sets the lease first holds it; the other's
  // UPDATE waits on the row lock, then finds the lease taken (READ COMMITTED re-reads the row), and
  // changes nothing: the row count says who holds it. Binds: owner, lease in seconds, order.
  public static final String LEASE_ORDER_CHECK = "UPDATE order_checks SET lease_owner = ?,"
      + " lease_until = UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE order_no = ? AND NOT done"
      + " AND next_check_at <= UTC_TIMESTAMP(3) AND (lease_until IS NULL OR lease_until < UTC_TIMESTAMP(3))";

  // An order of a window the database refused writes in (Recovery.askFirst), asked about before its back-off
  // says: once after the window was given, whatever its next_check_at; the lease as above. Binds: owner, lease
  // in seconds, order, when the window was given (UTC).
  public static final String LEASE_ORDER_CHECK_FIRST = "UPDATE order_checks SET lease_owner = ?,"
      + " lease_until = UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE order_no = ? AND NOT done"
      + " AND (last_checked_at IS NULL OR last_checked_at < ?)"
      + " AND (lease_until IS NULL OR lease_until < UTC_TIMESTAMP(3))";

  // How often the order was asked about already: its back-off. Binds: the order.
  public static final String ORDER_CHECK_ATTEMPTS = "SELECT attempts FROM order_checks WHERE order_no = ?";

  // What the platform said, and when to ask next, written only while this instance holds the lease.
  // Binds: last state, seconds to the next check, done, order, owner.
  public static final String ORDER_CHECKED = "UPDATE order_checks SET attempts = attempts + 1,"
      + " last_state = ?, last_checked_at = UTC_TIMESTAMP(3), next_check_at = UTC_TIMESTAMP(3) + INTERVAL ? SECOND,"
      + " done = ?, lease_owner = NULL, lease_until = NULL WHERE order_no = ? AND lease_owner = ?";

  // No answer because of a failure of ours (the HTTP client's wait queue full, our time limit): the lease given
  // back, attempts and last answer as they were, so the order's back-off does not grow; asked again after
  // the shortest wait. Binds: seconds to the next check, order, owner.
  public static final String ORDER_NOT_CHECKED = "UPDATE order_checks SET next_check_at = UTC_TIMESTAMP(3)"
      + " + INTERVAL ? SECOND, lease_owner = NULL, lease_until = NULL WHERE order_no = ? AND lease_owner = ?";

  // A check (Recovery.check) asks the platform at most once a cooldown, whoever asked last (a check or the
  // sweeper, any instance), and not while the sweeper holds the order. Of two checks at once, the one whose
  // UPDATE sets the time first asks; the other waits on the row lock, re-reads the row (READ COMMITTED) and
  // matches nothing: the row count says who asks. Binds: the order, cooldown in seconds.
  public static final String CLAIM_ORDER_CHECK = "UPDATE order_checks SET last_checked_at = UTC_TIMESTAMP(3)"
      + " WHERE order_no = ? AND (last_checked_at IS NULL OR last_checked_at <= UTC_TIMESTAMP(3) - INTERVAL ? SECOND)"
      + " AND (lease_until IS NULL OR lease_until < UTC_TIMESTAMP(3))";

  // What a check's question came to; its back-off stays the sweeper's. Binds: last state, order.
  public static final String ORDER_CHECK_ANSWERED = "UPDATE order_checks SET last_state = ?,"
      + " last_checked_at = UTC_TIMESTAMP(3) WHERE order_no = ?";

  // The last question about an order, a check within the cooldown is answered from: what was said, how many
  // seconds ago, whether the sweeper holds it now. Binds: the order.
  public static final String LAST_ORDER_CHECK = "SELECT last_state, TIMESTAMPDIFF(SECOND, last_checked_at,"
      + " UTC_TIMESTAMP(3)), COALESCE(lease_until >= UTC_TIMESTAMP(3), 0) FROM order_checks"
      + " WHERE order_no = ?";

  // Checks of orders past recovery.max_age are of no more use. Binds: seconds, batch size.
  public static final String PURGE_ORDER_CHECKS =
      "DELETE FROM order_checks WHERE created_at < UTC_TIMESTAMP(3) - INTERVAL ? SECOND LIMIT ?";

  // The daily close (reconcile.daily.DailyClose). A channel's day gets its row when first due; a second instance
  // inserting it at the same moment adds nothing. Times come from the instance's clock, in UTC.
  // Binds: channel, day, now (next try), now (created).
  public static final String ADD_DAILY_CLOSE = "INSERT IGNORE INTO daily_closes (channel, bill_date, state,"
      + " next_try_at, created_at) VALUES (?, ?, 'pending', ?, ?)";

  // Whoever sets the lease first closes the day; the other's UPDATE finds it taken and changes nothing (as
  // LEASE_ORDER_CHECK). Binds: owner, lease until, now (tried), channel, day, now, now.
  public static final String LEASE_DAILY_CLOSE = "UPDATE daily_closes SET lease_owner = ?, lease_until = ?,"
      + " attempts = attempts + 1, last_tried_at = ? WHERE channel = ? AND bill_date = ? AND state = 'pending'"
      + " AND next_try_at <= ? AND (lease_until IS NULL OR lease_until < ?)";

  // A day's close over (done, failed) or to be tried again (pending), written only while this instance holds
  // the lease. Binds: state, next try, detail, summary, channel, day, owner.
  public static final String DAILY_CLOSE_TRIED = "UPDATE daily_closes SET state = ?, next_try_at = ?, detail = ?,"
      + " summary = ?, lease_owner = NULL, lease_until = NULL WHERE channel = ? AND bill_date = ? AND lease_owner = ?";

  // A channel's closes of the last days: which are not over (a service down over midnight catches up). The
  // primary key's range. Binds: channel, the first day.
  public static final String DAILY_CLOSES_SINCE =
      "SELECT bill_date, state FROM daily_closes WHERE channel = ? AND bill_date >= ? ORDER BY bill_date";

  // A platform's undelivered events (recovery.MissedEventsCursor): where the walk down them has got to, one row a
  // platform for every instance, added by the first sweep that reads it. Binds: the platform's code.
  public static final String ADD_MISSED_EVENTS_CURSOR = "INSERT IGNORE INTO missed_events_cursor (platform, walk_from,"
      + " walk_below, walk_to, version, updated_at) VALUES (?, 0, 0, 0, 0, UTC_TIMESTAMP(3))";
  public static final String MISSED_EVENTS_CURSOR =
      "SELECT walk_from, walk_below, walk_to, version FROM missed_events_cursor WHERE platform = ?";

  // A sweep's progress, written over the version it read only: another instance that walked on meanwhile is not
  // undone, and the row count says whose write it was. Binds: from, below, to, the platform's code, the version read.
  public static final String MOVE_MISSED_EVENTS_CURSOR = "UPDATE missed_events_cursor SET walk_from = ?,"
      + " walk_below = ?, walk_to = ?, version = version + 1, updated_at = UTC_TIMESTAMP(3) WHERE platform = ?"
      + " AND version = ?";

  // Alerts (alert.watch.AlertWatch, through store.Lease). One instance watches: whoever holds the lease, renewed
  // at every look, taken over once it has run out. Its one row, added by the first look; a second instance inserting
  // it at the same moment adds nothing. Binds: none.
  public static final String ADD_ALERT_LEASE = "INSERT IGNORE INTO alert_lease (name) VALUES ('watch')";
  // Two instances looking at once: whoever sets the lease first holds it; the other's UPDATE waits on the row lock,
  // then finds it held by another (READ COMMITTED re-reads the row) and changes nothing: the row count says who
  // watches. Binds: owner, lease in seconds, owner.
  public static final String TAKE_ALERT_LEASE = "UPDATE alert_lease SET lease_owner = ?,"
      + " lease_until = UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE name = 'watch'"
      + " AND (lease_owner = ? OR lease_until IS NULL OR lease_until < UTC_TIMESTAMP(3))";

  // The anomalies not told yet (idx_anomalies_alerted), oldest first, and whether one is over a day old (alerts
  // turned on late: history is not news; created_at is in the sessions' zone, as NOW). One is told by whoever
  // flips its flag. Binds: how many.
  public static final String UNTOLD_ANOMALIES = "SELECT id, kind, channel, order_no, trade_no, amount_cents, detail,"
      + " created_at < NOW(3) - INTERVAL 1 DAY OR resolved_at IS NOT NULL FROM anomalies WHERE alerted = FALSE"
      + " ORDER BY id LIMIT ?";
  public static final String ANOMALY_TOLD = "UPDATE anomalies SET alerted = TRUE WHERE id = ? AND alerted = FALSE";

  // Daily closes over and not told. Binds: none.
  public static final String UNTOLD_DAILY_CLOSES = "SELECT channel, bill_date, state, detail FROM daily_closes"
      + " WHERE alerted = FALSE AND state IN ('done', 'failed')";
  public static final String DAILY_CLOSE_TOLD = "UPDATE daily_closes SET alerted = TRUE WHERE channel = ?"
      + " AND bill_date = ? AND alerted = FALSE";

  // The notifications since the last look, for bursts of refused signatures (the primary key's range): the
  // refused ones' reason and address, and how long ago each came (the database's clock, whatever its zone);
  // five seconds settled, as two queues write them and may commit out of id order. Binds: after id, how many.
  public static final String NOTIFICATIONS_SINCE = "SELECT id, channel, outcome, IF(outcome = 'rejected',"
      + " LEFT(detail, 300), NULL), IF(outcome = 'rejected', remote_addr, NULL), TIMESTAMPDIFF(MICROSECOND,"
      + " received_at, NOW(3)) FROM notify_log WHERE id > ? AND received_at < NOW(3) - INTERVAL 5 SECOND"
      + " ORDER BY id LIMIT ?";
  // Where a watch that has just taken the lease starts: before the first row received within the given seconds
  // (since the service started, a window at most), else after the last row. A range of the recent rows on
  // idx_notify_log_received_at, not a scan of the old ones. Binds: seconds.
  public static final String NOTIFICATIONS_START = "SELECT COALESCE((SELECT MIN(id) FROM notify_log WHERE"
      + " received_at >= NOW(3) - INTERVAL ? SECOND) - 1, (SELECT MAX(id) FROM notify_log), 0)";

  // WeChat Pay v3 notifications refused because they name a WeChat Pay public key (PUB_KEY_ID_..., as
  // WechatV3Signature words an unknown serial) since the last look: the primary key's range, and how far it went.
  // The LIKE patterns here and in REFUSED_SERIALS escape '_' (ESCAPE '!': the same under NO_BACKSLASH_ESCAPES), and
  // write the quote as CHAR(39): a doubled quote in a literal trips the JDBC driver's parameter parsing.
  // Binds: after id (twice: where it stays when no row came).
  public static final String PUBLIC_KEY_REFUSALS_SINCE = "SELECT COALESCE(MAX(id), ?), COALESCE(SUM(channel ="
      + " 'wechat_v3' AND outcome = 'rejected' AND detail LIKE CONCAT('UNKNOWN!_SERIAL: Wechatpay-Serial ', CHAR(39),"
      + " 'PUB!_KEY!_ID!_%') ESCAPE '!'), 0) FROM notify_log WHERE id > ?";

  // paynotify doctor: the notifications refused for their signature, key or merchant lately, by channel and reason
  // (idx_notify_log_received_at's range), and WeChat Pay v3's unknown serials, as WechatV3Signature words them
  // ("UNKNOWN_SERIAL: Wechatpay-Serial '<serial>' is none of ..."). Binds: days.
  public static final String REFUSED_BY_KEY = "SELECT channel, SUBSTRING_INDEX(detail, ':', 1) AS reason,"
      + " COUNT(*), MAX(received_at) FROM notify_log WHERE received_at >= NOW() - INTERVAL ? DAY AND outcome ="
      + " 'rejected' AND SUBSTRING_INDEX(detail, ':', 1) IN ('BAD_SIGNATURE', 'UNKNOWN_SERIAL', 'DECRYPT_FAILED',"
      + " 'WRONG_MERCHANT') GROUP BY channel, reason ORDER BY channel, reason";
  // (the serial between the first two quotes, CHAR(39), as PUBLIC_KEY_REFUSALS_SINCE writes them)
  public static final String REFUSED_SERIALS = "SELECT SUBSTRING_INDEX(SUBSTRING_INDEX(detail, CHAR(39), 2),"
      + " CHAR(39), -1) AS serial, COUNT(*) FROM notify_log WHERE received_at >= NOW() - INTERVAL ? DAY AND channel ="
      + " 'wechat_v3' AND outcome = 'rejected' AND detail LIKE 'UNKNOWN!_SERIAL: Wechatpay-Serial %' ESCAPE '!'"
      + " GROUP BY serial ORDER BY COUNT(*) DESC LIMIT 20";

  // Payments since the last look (alerts.payments), a minute settled: a booking that waited on a lock and
  // committed after a later one took its id is still read. The primary key's range. Binds: after id, how many.
  public static final String PAYMENTS_SINCE = "SELECT id, channel, order_no, amount_cents FROM payments WHERE id > ?"
      + " AND created_at < NOW(3) - INTERVAL 1 MINUTE ORDER BY id LIMIT ?";
  public static final String LAST_PAYMENT_ID = "SELECT COALESCE(MAX(id), 0) FROM payments";

  // How long the oldest event not taken has waited (the status page, alerts): the pending rows only
  // (idx_forward_due), not those of a disabled endpoint, which an anomaly told of already and which would hide
  // another endpoint's outage. created_at is the column default, in the sessions' zone, as NOW.
  public static final String OLDEST_PENDING_SECONDS =
      "SELECT TIMESTAMPDIFF(SECOND, MIN(created_at), NOW(3)) FROM forward_events WHERE state = 'pending'"
          + " AND endpoint NOT IN (SELECT name FROM forward_endpoints WHERE disabled_at IS NOT NULL)";

  // The migration lease (setup.migrate.MigrationLease): on a Galera cluster, one instance at a time
  // migrates. Constants only: MigrationLease runs in IsolatedMigrations' own class loader, and javac
  // copies each constant into it, so it needs nothing of this class at run time.
  //
  // Outside Flyway's history: it must exist before Flyway runs. IF NOT EXISTS: DDL is ordered on Galera,
  // the instances after the first find it made.
  public static final String CREATE_MIGRATION_LEASE =
      "CREATE TABLE IF NOT EXISTS migration_lease (id TINYINT NOT NULL PRIMARY KEY,"
          + " owner VARCHAR(100) NOT NULL, expires_at DATETIME(3) NOT NULL) ENGINE=InnoDB";

  // The times the database refused writes (store.RefusalEpisodes), one row each when it is over. Binds: started,
  // ended (UTC), reason, refused, by endpoint (JSON).
  public static final String ADD_WRITE_REFUSAL = "INSERT INTO write_refusals (started_at, ended_at, reason, refused,"
      + " by_endpoint, lost_orders, created_at) VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3))";

  // Those ended since a time (UTC), newest first: idx_write_refusals_ended's range. Binds: since, limit.
  public static final String WRITE_REFUSALS_ENDED_SINCE = "SELECT started_at, ended_at, reason, refused,"
      + " by_endpoint, lost_orders FROM write_refusals WHERE ended_at >= ? ORDER BY ended_at DESC, id DESC LIMIT ?";

  // The platforms' certificates the service fetched itself (platform_certificates, V19): listed again, a
  // certificate keeps its row and gets a new fetched_at; a serial names one certificate, so two instances
  // fetching at once write the same row. Binds: platform, serial, certificate, not_before, not_after, source.
  public static final String KEEP_PLATFORM_CERTIFICATE = "INSERT INTO platform_certificates (platform, serial,"
      + " certificate, not_before, not_after, source, fetched_at) VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3))"
      + " ON DUPLICATE KEY UPDATE fetched_at = UTC_TIMESTAMP(3)";

  // One platform's, newest first. Binds: platform.
  public static final String PLATFORM_CERTIFICATES = "SELECT serial, certificate, source, fetched_at"
      + " FROM platform_certificates WHERE platform = ? ORDER BY not_after DESC";

  // The migration race: instances started at once on several nodes each write the one row, and
  // certification orders those writes across the cluster, so exactly one owner is there after them
  // (a write that lost certification fails with 1213 and is tried again). Taken when free or run
  // out; otherwise left to its holder. Binds: owner, term in seconds.
  public static final String TAKE_MIGRATION_LEASE = "INSERT INTO migration_lease (id, owner, expires_at)"
      + " VALUES (1, ?, NOW(3) + INTERVAL ? SECOND) ON DUPLICATE KEY UPDATE"
      + " owner = IF(expires_at < NOW(3), VALUES(owner), owner),"
      + " expires_at = IF(owner = VALUES(owner), VALUES(expires_at), expires_at)";

  // Who won: read causally (wsrep_sync_wait), so it sees what another node just committed.
  public static final String MIGRATION_LEASE_HOLDER = "SELECT owner FROM migration_lease WHERE id = 1";

  // Renewal and release touch the lease only while this owner holds it. Binds: term in seconds, owner.
  public static final String RENEW_MIGRATION_LEASE =
      "UPDATE migration_lease SET expires_at = NOW(3) + INTERVAL ? SECOND WHERE id = 1 AND owner = ?";

  public static final String RELEASE_MIGRATION_LEASE = "DELETE FROM migration_lease WHERE id = 1 AND owner = ?";
}
