package paynotify.cli;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import paynotify.admin.StatusReport;
import paynotify.channel.NotifyChannel;
import paynotify.forward.ForwardRelay;
import paynotify.http.HttpSettings;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp.Answer;
import paynotify.net.OutboundHttp;
import paynotify.recovery.AfterRefusals;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.store.RefusalEpisodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * status: what /status shows, in the terminal, from the database (the service running or not), and from the running
 * service's /health whether the database refuses its writes. Exit 1 while anomalies are open, 3 while the database
 * refuses writes, so that cron can mail it.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Channels and their last notification, today's payments, open anomalies (with what to do), "
        + "the last rejected or failed notifications, the forward queue, and whether the running service's database "
        + "refuses writes. Exit 0: nothing open; 1: anomalies open; 2: unusable configuration or database "
        + "unreachable; 3: database failure, or the database refuses the service's writes.")
final class StatusCommand extends CommandSupport {
  private static final Duration HEALTH_WAIT = Duration.ofSeconds(2);
  /** /health answers a few hundred bytes. */
  private static final int HEALTH_ANSWER_BYTES = 16 * 1024;

  @Option(names = "--json", description = "the report as JSON (the fields of /status.json)")
  boolean json;

  @Override
  int run() throws Exception {
    try (CliDatabase db = CliDatabase.open(config)) {
      Vertx vertx = Vertx.vertx();
      Database database = Pools.connect(vertx, db.settings());
      // Never started: only its backlog is read (the running service's relay does the sending).
      ForwardRelay relay = db.config().forward() == null ? null
          : new ForwardRelay(vertx, Pools.connect(vertx, db.settings()), db.config().forward());
      try {
        List<String> channels = db.config().channels().enabled().stream().map(NotifyChannel::endpoint).toList();
        AfterRefusals afterRefusals = new AfterRefusals(new RefusalEpisodes(vertx, database), database,
            db.config().orders(), AfterRefusals.endpoints(db.config().channels().enabled()),
            db.config().recovery().settings(), null, Clock.systemUTC());
        JsonObject report = StatusReport.collect(database, new StatusReport.Context(channels, null, relay, null,
            db.config().bills().daily(), Clock.systemUTC(), null, afterRefusals)).await();
        String service = serviceAddress(db.config().http());
        JsonObject writes = serviceWrites(vertx, service);
        if (writes != null) {
          StatusReport.withWrites(report, writes);
        }
        out().println(json ? report.encodePrettily() : writes != null ? text(report)
            : text(report) + "\nno service answered on " + service + " (not running?)\n");
        out().flush();
        if (writes != null && writes.getBoolean("refusing")) {
          return ExitCode.DATABASE; // nothing can be booked: worse than anything open
        }
        return report.getJsonObject("anomalies").getLong("open") > 0 ? ExitCode.FOUND : 0;
      } finally {
        if (relay != null) {
          relay.stop().await();
        }
        database.close().await();
        vertx.close().await();
      }
    }
  }

  /**
   * What the running service's /health says of the database's writes (only the service knows: its bookings are
   * refused), asked on its configured listener (loopback when it listens on every address), 2 s at most:
   * {@code {"refusing": true, "reason": ..., "since": ...}} while /health says the database refuses writes,
   * {@code {"refusing": false}} when it answers otherwise; null when no service answers (not running: nothing said).
   */
  private static JsonObject serviceWrites(Vertx vertx, String service) {
    OutboundHttp http = new OutboundHttp(vertx, HEALTH_WAIT, HEALTH_ANSWER_BYTES);
    try {
      Answer answer = http.send(HttpMethod.GET, URI.create("http://" + service + "/health"),
          MultiMap.caseInsensitiveMultiMap(), null).await();
      JsonObject body = new JsonObject(answer.body());
      return answer.status() == 503 && "database refuses writes".equals(body.getString("status"))
          ? new JsonObject().put("refusing", true).put("reason", body.getString("reason"))
              .put("since", body.getString("since"))
          : new JsonObject().put("refusing", false);
    } catch (OutboundFailure | DecodeException | ClassCastException e) {
      return null; // not running, or something else on that port
    } finally {
      http.close().await();
    }
  }

  /** host:port of the service's listener, loopback when it listens on every address. */
  private static String serviceAddress(HttpSettings http) {
    String host = http.host() == null || http.host().isBlank() || "0.0.0.0".equals(http.host())
        || "::".equals(http.host()) ? "127.0.0.1" : http.host();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + http.port();
  }

  /** The page's sections as plain lines; what needs a person first. */
  static String text(JsonObject r) {
    StringBuilder t = new StringBuilder();
    t.append("paynotify status at ").append(r.getString("generated_at")).append(" (")
        .append(r.getJsonObject("database").getString("time_zone")).append(")\n");
    JsonArray attention = r.getJsonArray("attention");
    if (attention.isEmpty()) {
      t.append("all clear\n");
    }
    for (int i = 0; i < attention.size(); i++) {
      t.append("ATTENTION: ").append(attention.getString(i)).append('\n');
    }
    JsonObject today = r.getJsonObject("payments_today");
    t.append("\ntoday (").append(r.getString("today")).append("): ").append(today.getLong("count"))
        .append(" payments, ").append(today.getString("amount")).append('\n');
    for (JsonObject c : objects(today.getJsonArray("by_channel"))) {
      t.append(String.format("  %-10s %6d  %12s%s%n", c.getString("channel"), c.getLong("count"), c.getString("amount"),
          StatusReport.belowPrice(c)));
    }
    t.append("\nchannels, last notification:").append(r.getJsonArray("channels").isEmpty() ? " none configured" : "")
        .append('\n');
    for (JsonObject c : objects(r.getJsonArray("channels"))) {
      JsonObject last = c.getJsonObject("last_notification");
      t.append(String.format("  %-10s %s%n", c.getString("channel"), last == null ? "never"
          : last.getString("at") + "  " + last.getString("outcome")));
    }
    JsonObject anomalies = r.getJsonObject("anomalies");
    t.append("\nopen anomalies: ").append(anomalies.getLong("open")).append('\n');
    for (JsonObject a : objects(anomalies.getJsonArray("shown"))) {
      t.append(String.format("  #%d  %s  %s  %s  order %s  trade %s  %s%n    %s%n    what to do: %s%n",
          a.getLong("id"), a.getString("created_at"), a.getString("kind"), a.getString("channel"),
          oneLine(a.getString("order_no")), oneLine(a.getString("trade_no")), a.getString("amount") == null ? "" : a.getString("amount"),
          oneLine(a.getString("detail")), a.getString("action")));
    }
    if (anomalies.getLong("open") > anomalies.getJsonArray("shown").size()) {
      t.append("  (the newest ").append(anomalies.getJsonArray("shown").size())
          .append(": paynotify anomalies list --open lists them all)\n");
    }
    JsonArray refused = r.getJsonArray("refused");
    t.append("\nlast rejected or failed notifications: ").append(refused.isEmpty() ? "none" : "").append('\n');
    for (JsonObject x : objects(refused)) {
      t.append(String.format("  %s  %-10s %-8s %s  %s%n", x.getString("at"), oneLine(x.getString("channel")),
          x.getString("outcome"), oneLine(x.getString("remote_addr")), oneLine(x.getString("detail"))));
    }
    JsonObject f = r.getJsonObject("forward");
    t.append("\nforward queue: ").append("off".equals(f.getString("state")) ? "off"
        : f.getLong("pending") + " pending" + (f.getLong("oldest_pending_seconds") == null ? ""
            : " (oldest " + f.getLong("oldest_pending_seconds") + " s)") + ", " + f.getLong("failed") + " failed")
        .append('\n');
    t.append("database: reachable, ").append(r.getJsonObject("database").getString("version"))
        .append("; paynotify ").append(r.getJsonObject("paynotify").getString("version"));
    return t.toString();
  }

  // A detail from a request may hold line breaks or terminal escapes: one printable line.
  private static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("[\\p{Cntrl}]+", " ");
  }

  private static List<JsonObject> objects(JsonArray array) {
    return array.stream().map(JsonObject.class::cast).toList();
  }
}
