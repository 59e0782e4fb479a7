package paynotify.admin;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Money;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.forward.ForwardRelay;
import paynotify.reconcile.daily.DailyCloseSettings;
import paynotify.recovery.AfterRefusals;
import paynotify.store.Database;
import paynotify.store.SqlQueries;
import paynotify.store.WriteRefusals.Refusing;
import paynotify.store.WriteRefusals;

/**
 * What /status, /status.json and {@code paynotify status} show: read from the database, one JSON object
 * (its fields are listed in docs/operations.md, "See it working"; keep them stable, scripts read them).
 * A handful of statements, each one index dive or a short range: cheap enough for a page refreshing
 * every 30 seconds on a database that also books payments.
 */
public final class StatusReport {
  /**
   * @param channels  the endpoints configured (alipay, wechat_v2, wechat_v3, epay, stripe, paypal, xunhupay, epusdt,
   *                  vmq, tokenpay)
   * @param startedAt when the service started; null for the command line
   * @param relay     the forward relay; null when forwarding is off
   * @param refusedUnrecorded refused requests counted but not written to notify_log since the start
   *                  (over retention.rejected_rows_per_second); null for the command line
   * @param daily     reconcile.daily, whose closes are shown (off: {@link DailyCloseSettings#off()})
   * @param clock     when a close is late: the clock DailyClose closes by (Clock.systemUTC(); a test's own)
   * @param refusing  whether the database refuses writes now (the running service's {@link WriteRefusals}); null
   *                  for the command line, which asks the service's /health ({@link #withWrites})
   * @param afterRefusals the last day's times the database refused writes, for the attention list; null: none read
   * @param keysSeen  an endpoint's {@code NotifyChannel.keysSeen()} (which kind of key its notifications came with,
   *                  counted in this instance's memory) or null; null for the command line, which has no such memory
   */
  public record Context(List<String> channels, Instant startedAt, ForwardRelay relay,
      LongSupplier refusedUnrecorded, DailyCloseSettings daily, Clock clock, Supplier<Refusing> refusing,
      AfterRefusals afterRefusals, Function<String, JsonObject> keysSeen) {
    public Context(List<String> channels, Instant startedAt, ForwardRelay relay, LongSupplier refusedUnrecorded,
        DailyCloseSettings daily, Clock clock, Supplier<Refusing> refusing, AfterRefusals afterRefusals) {
      this(channels, startedAt, relay, refusedUnrecorded, daily, clock, refusing, afterRefusals, null);
    }

    public Context(List<String> channels, Instant startedAt, ForwardRelay relay, LongSupplier refusedUnrecorded,
        DailyCloseSettings daily, Clock clock, Supplier<Refusing> refusing) {
      this(channels, startedAt, relay, refusedUnrecorded, daily, clock, refusing, null, null);
    }

    public Context(List<String> channels, Instant startedAt, ForwardRelay relay, LongSupplier refusedUnrecorded,
        DailyCloseSettings daily, Clock clock) {
      this(channels, startedAt, relay, refusedUnrecorded, daily, clock, null, null, null);
    }
  }

  /** Open anomalies and refused notifications listed; the count says how many there are in all. */
  static final int ANOMALIES_SHOWN = 20;
  static final int REFUSED_SHOWN = 10;
  /** A pending event older than this: the site is down or refuses (the relay retries for longer). */
  static final long STALE_PENDING_SECONDS = 600;

  // The database's clock and zone: every time shown is the sessions' (database.time_zone, Beijing by
  // default), and ages are computed there, never against this machine's clock.
  static final String SERVER =
      "SELECT VERSION(), NOW(3), CURDATE(), @@session.time_zone";

  // idx_notify_log_channel (V9): the primary key is in the secondary key, so this reads one entry.
  static final String LAST_NOTIFICATION =
      "SELECT received_at, outcome, detail, TIMESTAMPDIFF(SECOND, received_at, NOW(3)) FROM notify_log"
          + " WHERE channel = ? ORDER BY id DESC LIMIT 1";

  // The Beijing day (sessions are pinned to database.time_zone), a range of idx_payments_paid per platform. Short:
  // what a payment's detail says was really paid (V免签's reallyPrice, kept as sent: a plain decimal) below its
  // booked amount, NULL for none; LIKE first, so that only details that hold one are read as JSON.
  static final String PAYMENTS_TODAY =
      "SELECT channel, COUNT(*), SUM(amount_cents), COUNT(short), COALESCE(SUM(short), 0) FROM ("
          + "SELECT channel, amount_cents, CASE WHEN detail LIKE '%\"reallyPrice\"%' THEN NULLIF(GREATEST(amount_cents"
          + " - 100 * CAST(JSON_UNQUOTE(JSON_EXTRACT(detail, '$.reallyPrice')) AS DECIMAL(16, 2)), 0), 0) END short"
          + " FROM payments WHERE channel IN (" + "?, ".repeat(Platform.values().length - 1) + "?)"
          + " AND paid_at >= CURDATE() AND paid_at < CURDATE() + INTERVAL 1 DAY) today"
          + " GROUP BY channel ORDER BY channel";

  // idx_anomalies_open (resolved_at, created_at), read backwards: newest first.
  static final String OPEN_ANOMALIES =
      "SELECT id, created_at, kind, channel, order_no, trade_no, amount_cents, detail FROM anomalies"
          + " WHERE resolved_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?";


  // idx_notify_log_outcome (V9): the newest of each outcome read from the index, then merged; an IN
  // over both would sort every rejected row of a flood.
  static final String LAST_REFUSED =
      "SELECT * FROM ("
          + "(SELECT id, received_at, channel, outcome, remote_addr, detail FROM notify_log"
          + " WHERE outcome = 'rejected' ORDER BY id DESC LIMIT ?)"
          + " UNION ALL (SELECT id, received_at, channel, outcome, remote_addr, detail FROM notify_log"
          + " WHERE outcome = 'error' ORDER BY id DESC LIMIT ?)) refused ORDER BY id DESC LIMIT ?";


  // The primary key (channel, bill_date) read backwards: one entry. last_tried_at is UTC (one clock for every
  // instance): shifted by the session's offset, it reads like every other time here; in Java that offset would
  // have to be parsed from the session. UTC_TIMESTAMP() and NOW() are the statement's one instant.
  static final String LAST_DAILY_CLOSE =
      "SELECT bill_date, state, attempts,"
          + " last_tried_at + INTERVAL TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) SECOND, detail, summary"
          + " FROM daily_closes WHERE channel = ? ORDER BY bill_date DESC LIMIT 1";

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private StatusReport() {}

  /** How long the admin listener serves one computed report: every request meanwhile shares it. */
  static final long CACHE_MS = 3_000;

  /** Fails when the database does not answer (the page then says so, the command exits 3). */
  public static Future<JsonObject> collect(Database db, Context context) {
    return fromDatabase(db, context).map(r -> withLive(r, context));
  }

  /**
   * The report as the admin listener serves it: read at most every {@link #CACHE_MS}, one read for all
   * the requests that come meanwhile, however many (a script polling in a loop costs the database one
   * report every few seconds); the uptime and the unrecorded count are each request's own.
   *
   * @param db the status pool, never the booking one
   */
  public static Supplier<Future<JsonObject>> cached(Database db, Context context) {
    CachedRead<JsonObject> read = new CachedRead<>(CACHE_MS, () -> fromDatabase(db, context));
    return () -> read.get().map(r -> withLive(r.copy(), context));
  }

  /**
   * What each request reads for itself: the service's uptime, the refused requests counted, not written, which kind
   * of key each channel's notifications came with, and whether the database refuses writes.
   */
  private static JsonObject withLive(JsonObject report, Context context) {
    report.put("paynotify", paynotify(context.startedAt())).put("refused_unrecorded",
        context.refusedUnrecorded() == null ? null : context.refusedUnrecorded().getAsLong());
    if (context.keysSeen() != null) {
      for (int i = 0; i < report.getJsonArray("channels").size(); i++) {
        JsonObject channel = report.getJsonArray("channels").getJsonObject(i);
        JsonObject seen = context.keysSeen().apply(channel.getString("channel"));
        if (seen != null) {
          channel.put("keys_seen", seen);
        }
      }
    }
    if (context.refusing() == null) {
      return report;
    }
    Refusing r = context.refusing().get();
    return withWrites(report, r == null ? new JsonObject().put("refusing", false) : new JsonObject()
        .put("refusing", true).put("reason", r.reason()).put("since", r.since().toString()).put("refused", r.refused()));
  }

  /**
   * {@code writes} ({@code refusing}; while true its {@code reason}, {@code since} as an ISO instant and, when known,
   * {@code refused}) as the report's {@code database_writes}; while the database refuses writes, the first line of
   * the attention list, with what to do. Nothing can be booked meanwhile: nothing else is as urgent.
   */
  public static JsonObject withWrites(JsonObject report, JsonObject writes) {
    report.put("database_writes", writes);
    if (writes.getBoolean("refusing", false)) {
      String reason = writes.getString("reason");
      Long refused = writes.getLong("refused");
      JsonArray attention = new JsonArray().add("the database refuses writes" + since(writes.getString("since"))
          + " (" + (reason == null ? "reason not given" : reason) + ")"
          + (refused == null ? "" : ": " + refused + " notifications answered failure")
          + "; what to do: " + WriteRefusals.whatToDo(reason));
      report.put("attention", attention.addAll(report.getJsonArray("attention", new JsonArray())));
    }
    return report;
  }

  /**
   * " since T Beijing time" for an ISO instant; nothing when there is none to read (a /health answered by another
   * version, or by something else on that port, must not stop the status from being told).
   */
  private static String since(String iso) {
    try {
      return iso == null ? "" : " since " + LocalDateTime.ofInstant(Instant.parse(iso), PlatformTime.BEIJING)
          .format(TIME) + " Beijing time";
    } catch (DateTimeParseException e) {
      return "";
    }
  }

  /** All but the service's own uptime and version. */
  private static Future<JsonObject> fromDatabase(Database db, Context context) {
    JsonObject report = new JsonObject();
    // One transaction: a consistent snapshot (REPEATABLE READ), the counts agree with the lists.
    Future<JsonObject> fromDatabase = db.inTransaction(conn -> server(conn, report)
        .compose(v -> channels(conn, context.channels(), report))
        .compose(v -> paymentsToday(conn, report))
        .compose(v -> anomalies(conn, report))
        .compose(v -> refused(conn, report))
        .compose(v -> dailyClose(conn, context, report))
        .compose(v -> context.relay() == null ? Future.succeededFuture(null) : oldestPending(conn))
        .map(oldest -> {
          if (context.relay() != null) {
            report.put("forward", new JsonObject().put("state", "on").put("oldest_pending_seconds", oldest));
          }
          return report;
        }));
    return fromDatabase.compose(r -> context.relay() == null
        ? Future.succeededFuture(r.put("forward", new JsonObject().put("state", "off")))
        : context.relay().backlog().map(b -> {
          r.getJsonObject("forward").mergeIn(b.json());
          return r;
        })).map(r -> r.put("attention", attention(r))).compose(r -> afterRefusals(context, r));
  }

  /** The attention list's lines of the last day's times the database refused writes (orders to check). */
  private static Future<JsonObject> afterRefusals(Context context, JsonObject report) {
    return context.afterRefusals() == null ? Future.succeededFuture(report) : context.afterRefusals().attention()
        .map(lines -> {
          lines.forEach(report.getJsonArray("attention")::add);
          return report;
        });
  }

  private static Future<Void> server(SqlConnection conn, JsonObject report) {
    return conn.query(SERVER).execute().map(rows -> {
      Row r = rows.iterator().next();
      report.put("generated_at", time(r.getLocalDateTime(1)));
      report.put("database", new JsonObject().put("reachable", true).put("version", r.getString(0))
          .put("time_zone", r.getString(3)));
      report.put("today", r.getLocalDate(2).toString());
      return null;
    });
  }

  private static Future<Void> channels(SqlConnection conn, List<String> channels, JsonObject report) {
    JsonArray out = new JsonArray();
    report.put("channels", out);
    Future<Void> done = Future.succeededFuture();
    for (String channel : channels) {
      done = done.compose(v -> conn.preparedQuery(LAST_NOTIFICATION).execute(Tuple.of(channel)).map(rows -> {
        JsonObject last = null;
        for (Row r : rows) {
          last = new JsonObject().put("at", time(r.getLocalDateTime(0))).put("outcome", r.getString(1))
              .put("detail", r.getString(2)).put("age_seconds", r.getLong(3));
        }
        out.add(new JsonObject().put("channel", channel).put("last_notification", last));
        return null;
      }));
    }
    return done;
  }

  private static Future<Void> paymentsToday(SqlConnection conn, JsonObject report) {
    return conn.preparedQuery(PAYMENTS_TODAY)
        .execute(Tuple.from(Arrays.stream(Platform.values()).map(Platform::code).toList())).map(rows -> {
          JsonArray byChannel = new JsonArray();
          long count = 0;
          long cents = 0;
          for (Row r : rows) {
            long n = r.getLong(1);
            long sum = r.getLong(2);
            count += n;
            cents += sum;
            JsonObject channel = new JsonObject().put("channel", r.getString(0)).put("count", n)
                .put("amount_cents", sum).put("amount", Money.format(sum));
            long below = r.getLong(3);
            if (below > 0) { // what V免签's shifting cost: paid less than the price booked
              long shortCents = r.getLong(4);
              channel.put("below_price", new JsonObject().put("count", below).put("short_cents", shortCents)
                  .put("short", Money.format(shortCents)));
            }
            byChannel.add(channel);
          }
          report.put("payments_today", new JsonObject().put("count", count).put("amount_cents", cents)
              .put("amount", Money.format(cents)).put("by_channel", byChannel));
          return null;
        });
  }

  /** What a channel's line of today's payments adds when some were paid below their price: "" for none. */
  public static String belowPrice(JsonObject channel) {
    JsonObject below = channel.getJsonObject("below_price");
    return below == null ? "" : " (" + below.getLong("count") + " paid below their price, " + below.getString("short")
        + " less)";
  }

  private static Future<Void> anomalies(SqlConnection conn, JsonObject report) {
    return conn.query(SqlQueries.COUNT_OPEN_ANOMALIES).execute()
        .compose(count -> conn.preparedQuery(OPEN_ANOMALIES).execute(Tuple.of(ANOMALIES_SHOWN)).map(rows -> {
          JsonArray shown = new JsonArray();
          for (Row r : rows) {
            Long cents = r.getLong(6);
            AnomalyKind kind = AnomalyKind.of(r.getString(2));
            shown.add(new JsonObject().put("id", r.getLong(0)).put("created_at", time(r.getLocalDateTime(1)))
                .put("kind", r.getString(2)).put("channel", r.getString(3)).put("order_no", r.getString(4))
                .put("trade_no", r.getString(5)).put("amount_cents", cents)
                .put("amount", cents == null ? null : Money.format(cents)).put("detail", r.getString(7))
                // A kind recorded by a newer version: still listed, the detail says what it is.
                .put("action", kind == null ? "see the detail (a kind this version does not know)" : kind.action()));
          }
          report.put("anomalies", new JsonObject().put("open", first(count)).put("shown", shown));
          return null;
        }));
  }

  private static Future<Void> refused(SqlConnection conn, JsonObject report) {
    return conn.preparedQuery(LAST_REFUSED).execute(Tuple.of(REFUSED_SHOWN, REFUSED_SHOWN, REFUSED_SHOWN))
        .map(rows -> {
          JsonArray out = new JsonArray();
          for (Row r : rows) {
            out.add(new JsonObject().put("at", time(r.getLocalDateTime(1))).put("channel", r.getString(2))
                .put("outcome", r.getString(3)).put("remote_addr", r.getString(4)).put("detail", r.getString(5)));
          }
          report.put("refused", out);
          return null;
        });
  }

  /** Each channel's last close, and whether yesterday's is overdue: past its give-up time and not done. */
  private static Future<Void> dailyClose(SqlConnection conn, Context context, JsonObject report) {
    DailyCloseSettings daily = context.daily();
    JsonObject out = new JsonObject().put("enabled", daily.enabled());
    report.put("daily_close", out);
    if (!daily.enabled()) {
      return Future.succeededFuture();
    }
    // This machine's clock, not the database's: DailyClose decides by it when a close is due and given up.
    LocalDateTime now = LocalDateTime.ofInstant(context.clock().instant(), PlatformTime.BEIJING);
    LocalDate day = now.toLocalDate().minusDays(1);
    // The last try starts at the give-up time and may run a while: a quarter of an hour before saying it failed
    boolean pastGiveUp = now.isAfter(daily.giveUpAt(day).plus(DailyCloseSettings.RETRY));
    String yesterday = day.toString();
    JsonArray channels = new JsonArray();
    out.put("at", daily.at().toString()).put("channels", channels);
    Future<Void> done = Future.succeededFuture();
    for (String channel : daily.platforms().stream().map(Platform::code).toList()) {
      done = done.compose(v -> conn.preparedQuery(LAST_DAILY_CLOSE).execute(Tuple.of(channel)).map(rows -> {
        JsonObject last = null;
        for (Row r : rows) {
          String summary = r.getString(5);
          last = new JsonObject().put("bill_date", r.getLocalDate(0).toString()).put("state", r.getString(1))
              .put("attempts", r.getInteger(2)).put("tried_at", time(r.getLocalDateTime(3)))
              .put("detail", r.getString(4)).put("summary", summary == null ? null : new JsonObject(summary));
        }
        boolean yesterdays = last != null && last.getString("bill_date").equals(yesterday);
        boolean closed = yesterdays && last.getString("state").equals("done");
        boolean givenUp = yesterdays && last.getString("state").equals("failed");
        channels.add(new JsonObject().put("channel", channel).put("expected_day", yesterday)
            .put("overdue", givenUp || pastGiveUp && !closed).put("last", last));
        return null;
      }));
    }
    return done;
  }

  private static Future<Long> oldestPending(SqlConnection conn) {
    return conn.query(SqlQueries.OLDEST_PENDING_SECONDS).execute().map(rows -> rows.iterator().next().getLong(0));
  }

  private static JsonObject paynotify(Instant startedAt) {
    String version = StatusReport.class.getPackage().getImplementationVersion(); // the jar's manifest
    return new JsonObject().put("version", version == null ? "dev" : version)
        .put("started_at", startedAt == null ? null : startedAt.toString())
        .put("uptime_seconds", startedAt == null ? null : Duration.between(startedAt, Instant.now()).toSeconds());
  }

  /** What needs a person, worst first; empty: all clear. */
  private static JsonArray attention(JsonObject r) {
    JsonArray out = new JsonArray();
    long open = r.getJsonObject("anomalies").getLong("open");
    if (open > 0) {
      out.add(open + (open == 1 ? " open anomaly" : " open anomalies"));
    }
    JsonObject forward = r.getJsonObject("forward");
    long failed = forward.getLong("failed", 0L);
    if (failed > 0) {
      out.add(failed + (failed == 1 ? " event" : " events") + " the site never accepted (paynotify forward retry)");
    }
    JsonArray endpoints = forward.getJsonArray("endpoints", new JsonArray()); // none when off
    for (int i = 0; i < endpoints.size(); i++) {
      JsonObject e = endpoints.getJsonObject(i);
      if (e.getBoolean("disabled")) {
        out.add("endpoint " + e.getString("name") + " is disabled (" + e.getString("disabled_reason")
            + "): nothing is sent to it (paynotify forward enable --endpoint " + e.getString("name") + ")");
      }
      if (!e.getBoolean("configured") && e.getLong("pending") > 0) {
        long n = e.getLong("pending");
        out.add(n + (n == 1 ? " event waits" : " events wait") + " for endpoint " + e.getString("name") + ", which is"
            + " not in forward's configuration any more: add it back, or they are never sent");
      }
    }
    Long oldest = forward.getLong("oldest_pending_seconds");
    if (oldest != null && oldest > STALE_PENDING_SECONDS) {
      out.add("the site has not taken events for " + oldest / 60 + " min (is it up?)");
    }
    JsonArray closes = r.getJsonObject("daily_close").getJsonArray("channels", new JsonArray()); // none when off
    for (int i = 0; i < closes.size(); i++) {
      JsonObject c = closes.getJsonObject(i);
      if (c.getBoolean("overdue")) {
        JsonObject last = c.getJsonObject("last");
        // An older day's detail says nothing about this one.
        boolean tried = last != null && last.getString("bill_date").equals(c.getString("expected_day"))
            && last.getString("detail") != null;
        out.add("no bill fetched for " + c.getString("expected_day") + " (" + c.getString("channel") + "): "
            + (tried ? last.getString("detail") : "the daily close did not run"));
      }
    }
    return out;
  }

  private static long first(RowSet<Row> rows) {
    return rows.iterator().next().getLong(0);
  }

  private static String time(LocalDateTime t) {
    return t == null ? null : t.format(TIME);
  }
}
