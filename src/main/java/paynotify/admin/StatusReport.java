package paynotify.admin;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import paynotify.forward.ForwardRelay;
import paynotify.store.Database;

/** What /status, /status.json and {@code paynotify status} show: read from the database, one JSON object. */
public final class StatusReport {
  /**
   * @param channels  the endpoints configured (alipay, wechat_v2, wechat_v3, epay)
   * @param startedAt when the service started; null for the command line
   * @param relay     the forward relay; null when forwarding is off (or for the command line)
   */
  public record Context(List<String> channels, Instant startedAt, ForwardRelay relay) {}

  private StatusReport() {}

  public static Future<JsonObject> collect(Database db, Context context) {
    return db.ping().map(v -> new JsonObject().put("database", "reachable").put("channels", context.channels()));
  }
}
