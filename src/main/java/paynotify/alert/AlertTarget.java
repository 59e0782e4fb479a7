package paynotify.alert;

import io.vertx.core.Future;

/**
 * Where alerts go: a chat robot, a push service, mail. One implementation per service, each sending exactly
 * what that service documents, with its own signing. A target's failure says what went wrong without its URL's
 * secret parts (a bot token or a key in the path or query is a password).
 */
public interface AlertTarget {
  /** For logs and {@code paynotify alerts test}: wecom, dingtalk, feishu, telegram, serverchan, bark, mail. */
  String name();

  /** Sends {@code alert}; fails with a message fit for a log line when the service refused it or was not reached. */
  Future<Void> send(Alert alert);
}
