package paynotify.cli;

import io.vertx.core.Vertx;
import java.util.List;
import paynotify.booking.EventBooking;
import paynotify.config.AppConfig;
import paynotify.recovery.CheckAnswer;
import paynotify.recovery.Recovery;
import paynotify.server.PayNotifyServer;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.store.Isolation;
import paynotify.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * check: asks the order's platform now, books what it says was paid (through the booking a notification
 * goes through), and says the order's state, as {@code POST /orders/{no}/check} on the admin listener does.
 * For the owner at a shell: each run is a process with a query budget of its own, so a site's return page
 * asks the admin listener, whose budget holds every page's checks.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Ask the platform about an order now, book what it says was paid, print the order's state "
        + "(paid, unpaid, closed, partially_refunded, refunded, unknown); only paid is to be fulfilled. Exit 0: paid;"
        + " 1: anything else (unpaid, closed, refunded in full or in part, unknown); "
        + "2: unusable configuration (no platform can be asked); 3: database failure. For you at a shell: a site's"
        + " return page asks POST /orders/{order_no}/check on the admin listener (each run of this command has a"
        + " query budget of its own, so runs from pages would be held to no recovery.max_queries_per_minute).")
final class CheckCommand extends CommandSupport {
  @Parameters(index = "0", paramLabel = "ORDER_NO", description = "the site's order number (out_trade_no)")
  String orderNo;

  @Option(names = "--json", description = "one JSON object: order_no, state, fulfil, platform_status, detail")
  boolean json;

  @Override
  int run() throws Exception {
    try (CliDatabase db = CliDatabase.open(config)) {
      AppConfig c = db.config();
      if (c.recovery().clients().isEmpty()) {
        return fail(ExitCode.UNUSABLE, config + ": no platform can be asked: set alipay.app_private_key_file, or"
            + " wechat_v3.merchant_private_key_file and merchant_serial_no, or epay.gateway_url; or, with wechat_v2"
            + " on, recovery.enabled: true (it asks with the API key) (docs/operations.md, recovery)");
      }
      Vertx vertx = Vertx.vertx();
      Stores stores = Pools.stores(vertx, db.settings(), c.retention().rejectedRowsPerSecond());
      Database pool = Pools.connect(vertx, db.settings().withPool(1, 8), "recovery", Isolation.READ_COMMITTED);
      PlatformClients clients = PlatformClients.asking(vertx, c);
      try {
        EventBooking booking = new EventBooking(vertx, stores, c.booking(), c.orders(), PayNotifyServer.outbox(c));
        Recovery recovery = new Recovery(vertx, pool, booking, stores.log(), c.orders(), PayNotifyServer.outbox(c),
            clients.all(), List.of(), c.recovery().settings()); // one order: undelivered events are the sweeper's
        CheckAnswer answer = recovery.check(orderNo).await();
        out().println(json ? answer.toJson().encode() : answer.state().code() + ": " + answer.detail());
        out().flush();
        return answer.state() == CheckAnswer.State.PAID ? 0 : ExitCode.FOUND;
      } finally {
        clients.close();
        pool.close().await();
        stores.close().await(); // writes the booking's notify_log row first
        vertx.close().await();
      }
    }
  }
}
