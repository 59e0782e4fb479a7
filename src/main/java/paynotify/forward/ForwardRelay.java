package paynotify.forward;

import static paynotify.store.SqlQueries.FIND_FORWARD_EVENT;
import static paynotify.store.SqlQueries.FIND_FORWARD_EVENT_BY_ID;
import static paynotify.store.SqlQueries.FORWARD_BACKLOG;
import static paynotify.store.SqlQueries.REPLAY_EVENT;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import paynotify.forward.ForwardSettings.Endpoint;
import paynotify.store.Database;

/**
 * The outbox's relay: an {@link EndpointRelay} for each endpoint, each with its own rounds and connections (one
 * endpoint down or slow holds no other), on one small database pool; and what is asked of the outbox as a whole: its
 * backlog per endpoint, and the admin's replay.
 */
public final class ForwardRelay {
  private static final long BACKLOG_CACHE_MS = 5_000;

  private final Database db;
  private final List<Endpoint> endpoints;
  private final List<EndpointRelay> relays = new ArrayList<>();
  private Future<Backlog> backlog;
  private long backlogAt;

  /**
   * An endpoint's events waiting to be delivered, and given up on (forward retry); whether it is disabled (a 410,
   * answers 4xx in a row: forward enable) and why; configured false for rows of an endpoint no longer in the
   * configuration (they wait: nobody sends them).
   */
  public record EndpointBacklog(String name, long pending, long failed, String disabledReason, boolean configured) {
    public boolean disabled() {
      return disabledReason != null;
    }

    JsonObject json() {
      return new JsonObject().put("name", name).put("pending", pending).put("failed", failed)
          .put("disabled", disabled()).put("disabled_reason", disabledReason).put("configured", configured);
    }
  }

  /** The outbox's backlog, each endpoint's and in all. */
  public record Backlog(List<EndpointBacklog> endpoints) {
    public long pending() {
      return endpoints.stream().mapToLong(EndpointBacklog::pending).sum();
    }

    public long failed() {
      return endpoints.stream().mapToLong(EndpointBacklog::failed).sum();
    }

    /** Whether some endpoint is disabled. */
    public boolean disabled() {
      return endpoints.stream().anyMatch(EndpointBacklog::disabled);
    }

    /** The totals and each endpoint's, as /health and the status page show them. */
    public JsonObject json() {
      JsonArray each = new JsonArray();
      endpoints.forEach(e -> each.add(e.json()));
      return new JsonObject().put("pending", pending()).put("failed", failed()).put("disabled", disabled())
          .put("endpoints", each);
    }
  }

  /** @param db a pool of its own (READ COMMITTED: its claims take no gap locks in bookings' way), closed at stop */
  public ForwardRelay(Vertx vertx, Database db, ForwardSettings settings) {
    this.db = db;
    this.endpoints = settings.endpoints();
    String owner = UUID.randomUUID().toString(); // this instance, as lease_owner
    for (Endpoint endpoint : endpoints) {
      relays.add(new EndpointRelay(vertx, db, settings, endpoint, owner));
    }
  }

  /** The configured endpoints' names. */
  public List<String> endpointNames() {
    return endpoints.stream().map(Endpoint::name).toList();
  }

  /** Each endpoint's rounds, every {@code periodMs} (at once after a full batch). */
  public void start(long periodMs) {
    relays.forEach(r -> r.start(periodMs));
  }

  /** A round of each endpoint, side by side: the events claimed in all. */
  public Future<Integer> runOnce() {
    List<Future<Integer>> rounds = relays.stream().map(EndpointRelay::runOnce).toList();
    return Future.all(rounds).map(all -> rounds.stream().mapToInt(Future::result).sum());
  }

  /**
   * Sends an event again (the admin's replay), delivered or failed, with its id and bytes: {@code replayed} and
   * its state after, for each endpoint's row; null when there is no such event ({@code id}: the row's number,
   * which is one endpoint's, or its evt_ id, every endpoint's, or only {@code endpoint}'s when not null).
   */
  public Future<JsonObject> replay(String id, String endpoint) {
    boolean number = id.matches("\\d{1,18}");
    return db.inTransaction(conn -> conn.preparedQuery(number ? FIND_FORWARD_EVENT : FIND_FORWARD_EVENT_BY_ID)
        .execute(number ? Tuple.of(Long.parseLong(id)) : Tuple.of(id, endpoint, endpoint)).compose(rows -> {
          List<Row> found = new ArrayList<>();
          rows.forEach(r -> {
            if (endpoint == null || endpoint.equals(r.getString("endpoint"))) {
              found.add(r);
            }
          });
          if (found.isEmpty()) {
            return Future.succeededFuture(null);
          }
          JsonArray each = new JsonArray();
          Future<Void> done = Future.succeededFuture();
          for (Row r : found) {
            long row = r.getLong("id");
            done = done.compose(v -> conn.preparedQuery(REPLAY_EVENT).execute(Tuple.of(null, null, row))
                .map(replayed -> {
                  boolean again = replayed.rowCount() == 1;
                  each.add(new JsonObject().put("endpoint", r.getString("endpoint")).put("replayed", again)
                      .put("state", again ? "pending" : r.getString("state")));
                  return null;
                }));
          }
          return done.map(v -> new JsonObject().put("event", id)
              .put("replayed", each.stream().anyMatch(e -> ((JsonObject) e).getBoolean("replayed")))
              .put("endpoints", each));
        }));
  }

  /** Each endpoint's backlog, read at most every few seconds (the /health endpoint asks often). */
  public synchronized Future<Backlog> backlog() {
    long now = System.currentTimeMillis();
    if (backlog == null || now - backlogAt > BACKLOG_CACHE_MS || backlog.failed()) {
      backlogAt = now;
      backlog = db.inTransaction(conn -> conn.query(FORWARD_BACKLOG).execute()).map(this::backlog);
    }
    return backlog;
  }

  private Backlog backlog(RowSet<Row> rows) {
    Map<String, long[]> counts = new LinkedHashMap<>();
    Map<String, String> disabled = new LinkedHashMap<>();
    endpoints.forEach(e -> counts.put(e.name(), new long[2]));
    for (Row r : rows) {
      String name = r.getString(0);
      switch (r.getString(1)) {
        case "pending" -> counts.computeIfAbsent(name, n -> new long[2])[0] = r.getLong(2);
        case "failed" -> counts.computeIfAbsent(name, n -> new long[2])[1] = r.getLong(2);
        default -> disabled.put(name, r.getString(3) == null ? "disabled" : r.getString(3));
      }
    }
    List<EndpointBacklog> each = new ArrayList<>();
    counts.forEach((name, n) -> each.add(new EndpointBacklog(name, n[0], n[1], disabled.get(name),
        endpoints.stream().anyMatch(e -> e.name().equals(name)))));
    return new Backlog(List.copyOf(each));
  }

  /**
   * Stops after each endpoint's round in flight, if any, has written its outcomes (bounded by the timeout): an
   * attempt cut by the stop would count as failed, and could fail an event the receiver was accepting.
   */
  public Future<Void> stop() {
    return Future.join(relays.stream().map(EndpointRelay::stop).toList()).<Void>mapEmpty().otherwiseEmpty()
        .eventually(db::close);
  }
}
