package paynotify.cli;

import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.Function;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.config.AppConfig;
import paynotify.net.OutboundHttp;

/**
 * The platform clients a command asks through, on the command's Vert.x; closed with it: recovery's (check), or
 * those that confirm a bill's row (repair book, reconcile --repair).
 */
final class PlatformClients implements AutoCloseable {
  private static final int MAX_ANSWER_BYTES = 64 * 1024;

  private final OutboundHttp http;
  private final List<TradeQuery> clients;

  private PlatformClients(Vertx vertx, AppConfig config, List<Function<OutboundHttp, TradeQuery>> clients) {
    this.http = new OutboundHttp(vertx, config.recovery().settings().timeout(), MAX_ANSWER_BYTES);
    this.clients = clients.stream().map(client -> client.apply(http)).toList();
  }

  /** The platforms recovery asks. */
  static PlatformClients asking(Vertx vertx, AppConfig config) {
    return new PlatformClients(vertx, config, config.recovery().clients());
  }

  /** The platforms that can confirm a bill's row, whatever recovery.enabled says. */
  static PlatformClients confirming(Vertx vertx, AppConfig config) {
    return new PlatformClients(vertx, config, config.recovery().confirming());
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
