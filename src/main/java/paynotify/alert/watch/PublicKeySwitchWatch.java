package paynotify.alert.watch;

import static paynotify.store.SqlQueries.NOTIFICATIONS_START;
import static paynotify.store.SqlQueries.PUBLIC_KEY_REFUSALS_SINCE;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.store.Database;

/**
 * WeChat Pay moving the merchant to its public key (微信支付公钥) while wechat_v3.platform_keys lists none: WeChat
 * signs notifications with a {@code PUB_KEY_ID_...} then, which this configuration refuses as an unknown serial
 * (notify_log, UNKNOWN_SERIAL, the serial in its detail). Told once: the keys are read at the start, so the episode
 * lasts until the owner lists the key and restarts. Refusals of the last day count, so a restart does not hide it.
 */
final class PublicKeySwitchWatch implements Watch {
  private static final Duration LOOK_BACK = Duration.ofDays(1);

  private final Database db;
  private final Alerts alerts;
  private final AlertMessages messages;
  private Long seen; // the last notify_log id read; null: not read yet (then from a day back)
  private boolean told;

  PublicKeySwitchWatch(Database db, Alerts alerts, AlertMessages messages) {
    this.db = db;
    this.alerts = alerts;
    this.messages = messages;
  }

  @Override
  public Future<Void> look(Instant now) {
    if (told) {
      return Future.succeededFuture();
    }
    Future<Long> from = seen != null ? Future.succeededFuture(seen) : db.inTransaction(conn -> conn
        .preparedQuery(NOTIFICATIONS_START).execute(Tuple.of(LOOK_BACK.toSeconds())))
        .map(rows -> rows.iterator().next().getLong(0));
    return from.compose(after -> db.inTransaction(conn -> conn.preparedQuery(PUBLIC_KEY_REFUSALS_SINCE)
        .execute(Tuple.of(after, after)))).map(rows -> {
          Row r = rows.iterator().next();
          seen = r.getLong(0);
          long refused = r.getNumeric(1).longValue(); // any at all is told at once: nothing to add up
          if (refused > 0) {
            told = true;
            alerts.raise(messages.wechatPublicKeySeen(refused));
          }
          return null;
        });
  }

  /** Another instance reads on: this one starts again a day back when it next looks, unless it told already. */
  @Override
  public void forget() {
    seen = null;
  }
}
