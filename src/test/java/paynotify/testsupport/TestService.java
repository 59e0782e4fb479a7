package paynotify.testsupport;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import paynotify.admin.Monitoring;
import paynotify.cli.Main;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.server.PayNotifyServer;
import paynotify.setup.Schema;
import paynotify.setup.migrate.DatabaseMigrations;
import paynotify.testsupport.Http.Reply;

/** The real service on its own Vert.x instance and pool, on a free port, every channel configured. */
public final class TestService implements AutoCloseable {
  private static final String FORM = "application/x-www-form-urlencoded; charset=utf-8";

  private final Vertx vertx;
  private final PayNotifyServer server;
  private final Runnable logWriter = this::awaitLogRecorded;

  private TestService(Vertx vertx, PayNotifyServer server) {
    this.vertx = vertx;
    this.server = server;
    TestDatabase.readLogAfter(logWriter); // a test's read of notify_log sees what this service queued
  }

  public static TestService start() {
    return start(TestDatabase.get().settings(), new JsonObject());
  }

  /** @param overrides merged over the test configuration (e.g. retention settings) */
  public static TestService start(DatabaseSettings db, JsonObject overrides) {
    return start(db, AppConfig.from(configuration(overrides), "test", Map.of()));
  }

  /** From a configuration file, as {@code serve} reads it (the daily close runs its commands with that file). */
  public static TestService start(DatabaseSettings db, Path configFile) {
    Vertx reader = Vertx.vertx();
    AppConfig config;
    try {
      config = AppConfig.load(reader, configFile, Map.of()).await();
    } finally {
      reader.close().await();
    }
    return start(db, config);
  }

  /**
   * As {@code serve} starts: the site's orders table checked first (DatabaseMigrations, the check's
   * reading of the table goes into the OrdersTable the service books with).
   */
  public static TestService startOnCheckedTable(DatabaseSettings db, JsonObject overrides) {
    AppConfig config = AppConfig.from(configuration(overrides), "test", Map.of());
    Schema.migrate(db, config.orders(), config.channels().platforms(), "test");
    return start(db, config);
  }

  private static TestService start(DatabaseSettings db, AppConfig config) {
    Monitoring monitoring = Monitoring.start(config.admin());
    Vertx vertx = monitoring.vertx();
    try {
      return new TestService(vertx, PayNotifyServer.start(monitoring, config, db, Main.class).await());
    } catch (RuntimeException e) {
      vertx.close().await();
      throw e;
    }
  }

  /**
   * The test configuration (every channel on, a free port) with {@code overrides} merged over it:
   * what this class starts in the test's JVM, and what {@link ServiceProcess} writes for a real process.
   */
  public static JsonObject configuration(JsonObject overrides) {
    return new JsonObject()
        .put("http", new JsonObject().put("port", 0))
        // Tests count every refused request's row; RejectedFloodTest samples at the default.
        .put("retention", new JsonObject().put("rejected_rows_per_second", 100_000))
        .put("admin", new JsonObject().put("port", 0)) // off: tests that want it give it a free port
        .put("alipay", new JsonObject()
            .put("app_id", AlipayNotifications.APP_ID)
            .put("seller_id", AlipayNotifications.SELLER_ID)
            .put("public_key", AlipayNotifications.PUBLIC_KEY_PEM))
        .put("wechat_v2", new JsonObject()
            .put("appid", WechatV2Notifications.APP_ID)
            .put("mch_id", WechatV2Notifications.MCH_ID)
            .put("api_key", WechatV2Notifications.API_KEY))
        .put("wechat_v3", new JsonObject()
            .put("mchid", WechatV3Notifications.MCH_ID)
            .put("appid", WechatV3Notifications.APP_ID)
            .put("apiv3_key", WechatV3Notifications.APIV3_KEY)
            .put("platform_keys", new JsonArray().add(new JsonObject()
                .put("id", WechatV3Notifications.PUBLIC_KEY_ID)
                .put("key", WechatV3Notifications.PUBLIC_KEY_PEM))))
        .put("epay", new JsonObject()
            .put("pid", EpayNotifications.PID)
            .put("key", EpayNotifications.KEY))
        .put("stripe", new JsonObject()
            .put("webhook_secret", StripeNotifications.SECRET)
            .put("currency", StripeNotifications.CURRENCY))
        .put("paypal", new JsonObject()
            .put("receiver_email", PaypalNotifications.RECEIVER_EMAIL)
            .put("receiver_id", PaypalNotifications.RECEIVER_ID)
            .put("currency", PaypalNotifications.CURRENCY)
            .put("ipn_verify_url", PaypalVerifier.get().url()) // a real HTTP server in this JVM plays PayPal
            .put("verify_timeout_ms", 2000)) // PaypalVerifier.SLOW_MILLIS is beyond it
        .put("xunhupay", new JsonObject()
            .put("appid", XunhupayNotifications.APPID)
            .put("appsecret", XunhupayNotifications.APPSECRET))
        .put("epusdt", new JsonObject()
            .put("token", EpusdtNotifications.TOKEN)
            .put("pid", EpusdtNotifications.PID))
        .put("vmq", new JsonObject()
            .put("key", VmqNotifications.KEY)
            .put("order_field", "param") // order and trade differ, as the contract suite needs
            .put("order_pattern", "[A-Za-z0-9_-]{1,64}")) // the suites' numbers are of many lengths
        .put("paddle", new JsonObject()
            .put("webhook_secret", PaddleNotifications.SECRET)
            .put("currency", PaddleNotifications.CURRENCY))
        .put("tokenpay", new JsonObject()
            .put("key", TokenPayNotifications.API_TOKEN))
        .put("lemonsqueezy", new JsonObject()
            .put("signing_secret", LemonSqueezyNotifications.SECRET)
            .put("store_id", Long.toString(LemonSqueezyNotifications.STORE_ID))
            .put("currency", LemonSqueezyNotifications.CURRENCY))
        .put("creem", new JsonObject()
            .put("webhook_secret", CreemNotifications.SECRET)
            .put("currency", CreemNotifications.CURRENCY))
        .mergeIn(overrides, true);
  }

  /** {@code db} with {@code database.time_zone} set to {@code zone} (+00:00: a site that keeps UTC), as AppConfig reads it. */
  public static DatabaseSettings inTimeZone(DatabaseSettings db, String zone) {
    return new DatabaseSettings(db.host(), db.port(), db.name(), db.user(), db.password(), db.poolSize(),
        db.maxWaitQueue(), db.connectTimeout(), db.lockWaitSeconds(), db.embeddedDir(), db.security(), zone);
  }

  public int port() {
    return server.port();
  }

  public PayNotifyServer server() {
    return server;
  }

  /** notify_log rows are written in batches, after the reply: waits until those of the requests so far are. */
  public void awaitLogRecorded() {
    server.drainLogs().await();
  }

  public Reply postAlipay(String body) {
    return Http.post(port(), "/notify/alipay", FORM, body.getBytes(StandardCharsets.UTF_8));
  }

  public Reply send(Notification n) {
    return Http.send(port(), n);
  }

  public CompletableFuture<Reply> sendAsync(Notification n) {
    return Http.sendAsync(port(), n);
  }

  public CompletableFuture<Reply> postAlipayAsync(String body) {
    return Http.postAsync(port(), "/notify/alipay", FORM, body.getBytes(StandardCharsets.UTF_8));
  }

  /** Stops the service and its Vert.x instance, as a process exit would. */
  @Override
  public void close() {
    TestDatabase.stopReadingLogAfter(logWriter);
    try {
      server.stop().await();
    } finally {
      vertx.close().await();
    }
  }
}
