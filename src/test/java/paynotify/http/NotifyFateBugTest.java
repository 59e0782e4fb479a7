package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.booking.EventBooking;
import paynotify.booking.SiteEvents;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.PlainTextReplies;
import paynotify.channel.Platform;
import paynotify.channel.UnbookableNotification;
import paynotify.config.AppConfig;
import paynotify.server.Pools;
import paynotify.store.RefusalEpisode;
import paynotify.store.Stores;
import paynotify.store.WriteRefusals;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;

/**
 * A bug of ours, in a channel or in booking, is a request's fate too: the platform gets the failure reply
 * at once (and retries), the request is counted as an error, and a channel's bug leaves its row, instead
 * of a silence that only the request timeout ends.
 */
class NotifyFateBugTest extends DatabaseTestBase {
  /** Far beyond the reply a bug must get: a reply that waited for it would be the timeout's 503. */
  private Duration timeout = Duration.ofSeconds(20);

  private final Vertx vertx = Vertx.vertx();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<RefusalEpisode> ended = new ArrayList<>();
  private WriteRefusals refusals;
  private Stores stores;

  @AfterEach
  void close() {
    db.update("DROP TRIGGER IF EXISTS fate_full_keys");
    db.update("DROP TRIGGER IF EXISTS fate_full_anomalies");
    if (stores != null) {
      stores.close().await();
    }
    vertx.close().await();
  }

  @Test
  void aChannelThatThrowsGetsTheFailureReplyAndItsRow() {
    int port = serve(request -> {
      throw new IllegalStateException("a bug in the channel");
    });
    Reply reply = post(port);
    assertThat(reply.status()).isEqualTo(500);
    assertThat(errors()).isEqualTo(1);
    stores.rejected().drain().await();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE channel = 'bug' AND outcome = 'error'"
        + " AND detail LIKE 'unreadable: java.lang.IllegalStateException: a bug in the channel%'")).isEqualTo(1);
  }

  @Test
  void aBookingThatThrowsGetsTheFailureReplyAndIsCounted() {
    // booking switches on the kind: without one it throws before any statement
    int port = serve(request -> Future.succeededFuture(
        new NotifyEvent(Platform.ALIPAY, null, "O1", "T1", 100, null, "TRADE_SUCCESS")));
    Reply reply = post(port);
    assertThat(reply.status()).isEqualTo(500);
    assertThat(errors()).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void aBodyThatFailsAfterTheTimeoutAnsweredIsStillCounted() throws Exception {
    timeout = Duration.ofMillis(300);
    int port = serve(request -> Future.failedFuture(new IllegalStateException("never reached")));
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /notify/bug HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "5\r\nslow \r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
          .readLine();
      assertThat(status).as("the timeout's reply").isEqualTo("HTTP/1.1 503 Service Unavailable");
      // then the rest arrives, over http.max_body_bytes: refused, after its reply was sent
      int tooMuch = 20_000;
      out.write((Integer.toHexString(tooMuch) + "\r\n" + "x".repeat(tooMuch) + "\r\n0\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (count("rejected") == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(count("rejected")).isEqualTo(1);
  }

  /**
   * Not a bug, but the same fate's other end: a verified notification of a platform that never delivers again
   * (epusdt), refused by a full disk, names its order in the episode, under the site's number (the platform's is
   * {@code <order>-pay}); a genuine one whose anomaly could not be written too.
   */
  @Test
  void aRefusedNotificationOfAPlatformThatNeverDeliversAgainNamesItsOrder() {
    for (String table : new String[] {"keys", "anomalies"}) {
      db.update("CREATE TRIGGER fate_full_" + table + " BEFORE INSERT ON " + (table.equals("keys") ? "idempotent_keys"
          : "anomalies") + " FOR EACH ROW SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1114,"
          + " MESSAGE_TEXT = 'The table is full'");
    }
    int port = serve(Platform.EPUSDT, request -> {
      String orderNo = request.payload().toString();
      return orderNo.startsWith("unreadable ") ? Future.failedFuture(UnbookableNotification.unreadable(Platform.EPUSDT,
          null, orderNo.substring("unreadable ".length()), "a field of the test's"))
          : Future.succeededFuture(new NotifyEvent(Platform.EPUSDT, EventKind.PAYMENT, orderNo, "T-" + orderNo, 100,
              LocalDateTime.now(), "paid", null));
    });
    for (String body : new String[] {"E1-pay", "E2-pay", "unreadable E3-pay", "E1-pay"}) {
      assertThat(post(port, body).status()).isEqualTo(503);
    }
    refusals.stop();

    assertThat(ended).singleElement().satisfies(e -> {
      assertThat(e.reason()).isEqualTo("disk full (1114)");
      assertThat(e.refused()).isEqualTo(4);
      assertThat(e.lostOrders()).containsExactly("E1", "E2", "E3");
    });
  }

  private Reply post(int port) {
    return post(port, "anything");
  }

  private Reply post(int port, String body) {
    return Http.post(port, "/notify/bug", "text/plain", body.getBytes(StandardCharsets.UTF_8));
  }

  private double errors() {
    return count("error");
  }

  private double count(String outcome) {
    return registry.get("paynotify.notifications").tags("channel", "bug", "outcome", outcome).counter().count();
  }

  private int serve(Function<NotifyRequest, Future<NotifyEvent>> check) {
    return serve(Platform.ALIPAY, check);
  }

  private int serve(Platform platform, Function<NotifyRequest, Future<NotifyEvent>> check) {
    AppConfig config = AppConfig.from(new JsonObject()
        .put("http", new JsonObject().put("port", 0).put("request_timeout_ms", timeout.toMillis()))
        .put("admin", new JsonObject().put("port", 0))
        .put("orders", new JsonObject().put("out_trade_no", "{order_no}-pay")), "test", Map.of());
    stores = Pools.stores(vertx, db.settings(), 100_000);
    EventBooking booking = new EventBooking(vertx, stores, config.booking(), config.orders(), SiteEvents.OFF);
    Readiness readiness = new Readiness();
    readiness.markReady();
    NotifyVerticle verticle = new NotifyVerticle(config.http(), List.of(new BugChannel(platform, check)), Map.of(),
        booking, stores.log(), stores.rejected(), readiness, null, new NotifyMetrics(registry, List.of("bug")),
        refusals = new WriteRefusals(vertx, stores.db(), WriteRefusals.Timing.DEFAULT, Clock.systemUTC(), r -> {},
            e -> {}, ended::add), null);
    vertx.deployVerticle(verticle).await();
    return verticle.actualPort();
  }

  /** A channel of our own making, whose check is the test's. */
  private record BugChannel(Platform platform, Function<NotifyRequest, Future<NotifyEvent>> checker)
      implements PlainTextReplies {
    @Override
    public Door door() {
      return new Door("bug", platform, "/notify/bug", SUCCESS);
    }

    @Override
    public Future<NotifyEvent> check(NotifyRequest request) {
      return checker.apply(request);
    }
  }
}
