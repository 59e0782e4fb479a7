package paynotify.store;

import static paynotify.store.SqlQueries.ADD_WRITE_REFUSAL;
import static paynotify.store.SqlQueries.WRITE_REFUSALS_ENDED_SINCE;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.DatabaseException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ended times the database refused writes (table write_refusals, V18): written when one is over, read back by
 * the status page's attention lines and the daily close. The write comes right after a refusing database came
 * back, and may meet it refusing again or restarting: it is tried a few times, a while apart, and when it cannot
 * be written the log keeps what it would have said (the alerts told the owner anyway).
 */
public final class RefusalEpisodes {
  private static final Logger LOG = LoggerFactory.getLogger(RefusalEpisodes.class);
  /** The most read back at once: an episode lasts 20 s at least (WriteRefusals' CLOSING), so a day has few. */
  static final int MOST_READ = 100;
  private static final int ATTEMPTS = 5;

  private final Vertx vertx;
  private final Database db;
  private final Duration firstWait;

  public RefusalEpisodes(Vertx vertx, Database db) {
    this(vertx, db, Duration.ofSeconds(2));
  }

  /** @param firstWait before the second try; doubled before each next one (2, 4, 8, 16 s: half a minute) */
  public RefusalEpisodes(Vertx vertx, Database db, Duration firstWait) {
    this.vertx = vertx;
    this.db = db;
    this.firstWait = firstWait;
  }

  /** Writes the episode; fails (and logs it, whole) when it could not be written after every try. */
  public Future<Void> record(RefusalEpisode episode) {
    Tuple row = Tuple.of(utc(episode.since()), utc(episode.until()), episode.reason(), episode.refused(),
        new JsonObject(new LinkedHashMap<>(episode.refusedByEndpoint())).encode(),
        new JsonArray(episode.lostOrders()).encode());
    return attempt(row, 1).onFailure(err -> LOG.error("the database refused writes {} to {} ({}):"
        + " {} notification(s) answered failure {}, orders {}; not recorded in write_refusals (the status page and"
        + " the daily close will not show it): {}", episode.since(), episode.until(), episode.reason(),
        episode.refused(), episode.refusedByEndpoint(), episode.lostOrders(), err.toString()));
  }

  private Future<Void> attempt(Tuple row, int attempt) {
    Future<Void> written = db.inTransaction(conn -> conn.preparedQuery(ADD_WRITE_REFUSAL).execute(row)).mapEmpty();
    return written.recover(err -> {
      if (!worthAnotherTry(err) || attempt >= ATTEMPTS) {
        return Future.failedFuture(err);
      }
      LOG.info("write_refusals: not written yet, tried again: {}", err.toString());
      return vertx.timer(firstWait.toMillis() << (attempt - 1)).compose(v -> attempt(row, attempt + 1));
    });
  }

  /**
   * What may pass: the database refusing again, a lost race, or no answer (a server restarting after it ran out
   * of disk); a statement the server rejects for anything else would be rejected again.
   */
  private static boolean worthAnotherTry(Throwable err) {
    return DbErrors.isTransient(err) || DbErrors.refusal(err) != null
        || !(err instanceof DatabaseException);
  }

  /** The episodes that ended at or after {@code since}, newest first (at most {@link #MOST_READ}). */
  public Future<List<RefusalEpisode>> endedSince(Instant since) {
    return db.inTransaction(conn -> endedSince(conn, since));
  }

  /** {@link #endedSince(Instant)} on a connection of the caller's pool (the status page reads on its own). */
  public static Future<List<RefusalEpisode>> endedSince(SqlConnection conn, Instant since) {
    return conn.preparedQuery(WRITE_REFUSALS_ENDED_SINCE).execute(Tuple.of(utc(since), MOST_READ)).map(rows -> {
      List<RefusalEpisode> out = new ArrayList<>();
      for (Row r : rows) {
        Map<String, Long> byEndpoint = new LinkedHashMap<>();
        new JsonObject(r.getString(4))
            .forEach(e -> byEndpoint.put(e.getKey(), ((Number) e.getValue()).longValue()));
        List<String> lostOrders = new ArrayList<>();
        new JsonArray(r.getString(5)).forEach(orderNo -> lostOrders.add((String) orderNo));
        out.add(new RefusalEpisode(r.getString(2), instant(r.getLocalDateTime(0)), instant(r.getLocalDateTime(1)),
            r.getLong(3), Map.copyOf(byEndpoint), lostOrders));
      }
      return out;
    });
  }

  private static LocalDateTime utc(Instant t) {
    return LocalDateTime.ofInstant(t, ZoneOffset.UTC);
  }

  private static Instant instant(LocalDateTime utc) {
    return utc.toInstant(ZoneOffset.UTC);
  }
}
