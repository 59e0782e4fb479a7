package paynotify.alert;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.ProxyOptions;
import java.time.Duration;
import paynotify.net.OutboundHttp;

/**
 * The HTTP clients alerts go out through: their own (a robot that is slow holds none of a booking's or a
 * platform query's connections), a short time limit, a small answer; Telegram's through its proxy when one is
 * set. Closed with the service or the command that made them.
 */
public final class AlertClients {
  /** A short time limit, a small answer, a few connections. */
  private static final OutboundHttp.Limits LIMITS = new OutboundHttp.Limits(Duration.ofSeconds(10), 16 * 1024);

  private final Vertx vertx;
  private final OutboundHttp direct;
  private final OutboundHttp telegram;

  /** @param telegramProxy null: Telegram directly too */
  public AlertClients(Vertx vertx, ProxyOptions telegramProxy) {
    this.vertx = vertx;
    this.direct = new OutboundHttp(vertx, LIMITS);
    this.telegram = telegramProxy == null ? direct : new OutboundHttp(vertx, LIMITS.through(telegramProxy));
  }

  public Vertx vertx() {
    return vertx;
  }

  public OutboundHttp direct() {
    return direct;
  }

  public OutboundHttp telegram() {
    return telegram;
  }

  public Future<Void> close() {
    return telegram == direct ? direct.close() : Future.join(direct.close(), telegram.close()).mapEmpty();
  }
}
