package paynotify.cli;

import io.vertx.core.Vertx;
import java.util.List;
import paynotify.channel.Platform;
import paynotify.config.AppConfig;
import paynotify.gateway.GatewayHttp;
import paynotify.gateway.TradeQuery;

/** The platform clients a command asks through (check, repair book), on the command's Vert.x; closed with it. */
final class PlatformClients implements AutoCloseable {
  private static final int MAX_ANSWER_BYTES = 64 * 1024;

  private final GatewayHttp http;
  private final List<TradeQuery> clients;

  PlatformClients(Vertx vertx, AppConfig config) {
    this.http = new GatewayHttp(vertx, config.recovery().settings().timeout(), MAX_ANSWER_BYTES);
    this.clients = config.recovery().clients().stream().map(client -> client.apply(http)).toList();
  }

  List<TradeQuery> all() {
    return clients;
  }

  /** The client that asks {@code platform}, or null when none can. */
  TradeQuery of(Platform platform) {
    return clients.stream().filter(q -> q.platform() == platform).findFirst().orElse(null);
  }

  @Override
  public void close() {
    http.close().await();
  }
}
