package paynotify.channel.paddle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.Outbound;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.NodeReceiver;
import paynotify.testsupport.PaddleApiStandIn;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.PaddleSdk;

/**
 * The stand-in answers as Paddle does: Paddle's own node SDK, pointed at it, pages through its notifications
 * (following {@code meta.pagination.next}) and reads each one's event; a wrong key is the SDK's error; and
 * {@link PaddleEvents} asks it and reads the same pages.
 */
class PaddleEventsSdkTest {
  PaddleApiStandIn paddle = PaddleApiStandIn.start();

  @BeforeAll
  static void install() {
    assumeTrue(NodeReceiver.available(), "node and npm are not installed: Paddle's SDK is not run");
    PaddleSdk.install();
  }

  @AfterEach
  void stop() {
    paddle.close();
  }

  void notify(int count) {
    for (int i = 0; i < count; i++) {
      paddle.notified(PaddleNotifications.event("evt_" + i, "transaction.completed", PaddleNotifications.transaction(
          "O" + i, "txn_" + i, 100, PaddleNotifications.CURRENCY, "completed", "web")),
          PaddleApiStandIn.DESTINATION, i % 2 == 0 ? "failed" : "needs_retry", 600 - i);
    }
    paddle.notified(PaddleNotifications.event("evt_delivered", "transaction.completed", PaddleNotifications
        .transaction("D", "txn_delivered", 100, PaddleNotifications.CURRENCY, "completed", "web")),
        PaddleApiStandIn.DESTINATION, "delivered", 10);
  }

  @Test
  void theSdkPagesThroughTheStandInsNotifications() {
    notify(5);
    String listed = PaddleSdk.list(paddle.url().toString(), PaddleApiStandIn.KEY, PaddleApiStandIn.DESTINATION, 2);
    List<String> lines = listed.lines().skip(1).toList();
    assertThat(listed).startsWith("listed");
    assertThat(lines).hasSize(5);
    assertThat(lines.get(0)).endsWith(" failed transaction.completed evt_4 txn_4");
    assertThat(lines.get(1)).endsWith(" needs_retry transaction.completed evt_3 txn_3");
    assertThat(lines.get(4)).endsWith("failed transaction.completed evt_0 txn_0");
    assertThat(paddle.queries()).hasSize(3); // 2 + 2 + 1, each page after the last one's id
    assertThat(paddle.queries().get(0)).containsEntry("status", "failed,needs_retry,not_attempted")
        .containsEntry("notification_setting_id", PaddleApiStandIn.DESTINATION);

    assertThat(PaddleSdk.list(paddle.url().toString(), "pdl_live_apikey_wrong", PaddleApiStandIn.DESTINATION, 2))
        .isEqualTo("refused authentication_malformed");
  }

  @Test
  void ourClientReadsWhatTheSdkReads() throws Exception {
    notify(PaddleEvents.PAGE + 5);
    Vertx vertx = Vertx.vertx();
    try {
      PaddleChannel channel = new PaddleChannel(List.of(PaddleNotifications.SECRET), Duration.ofSeconds(300),
          PaddleNotifications.CURRENCY, Clock.systemUTC());
      OutboundHttp http = new OutboundHttp(vertx, Duration.ofSeconds(5), 1024 * 1024);
      PaddleEvents events = new PaddleEvents(http, paddle.url(), PaddleApiStandIn.KEY, PaddleApiStandIn.DESTINATION,
          channel);
      long since = System.currentTimeMillis() / 1000 - 3600;
      long until = System.currentTimeMillis() / 1000 + 1;
      Outbound.Page first = events.page(since, until, null).await();
      assertThat(first.events()).hasSize(PaddleEvents.PAGE);
      assertThat(first.hasMore()).isTrue();
      Outbound.Page second = events.page(since, until, first.after()).await();
      assertThat(second.events()).extracting(Outbound.Missed::id).containsExactly("evt_4", "evt_3", "evt_2",
          "evt_1", "evt_0");
      assertThat(second.hasMore()).isFalse();
      JsonObject event = second.events().get(0).event();
      assertThat(events.read(event).tradeNo()).isEqualTo("txn_4");

      OutboundFailure refused = (OutboundFailure) org.assertj.core.api.Assertions.catchThrowable(() ->
          new PaddleEvents(http, paddle.url(), "pdl_live_apikey_wrong", PaddleApiStandIn.DESTINATION, channel)
              .page(since, until, null).await());
      assertThat(refused.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(refused.getMessage()).contains("authentication_malformed", "Notifications: read");
    } finally {
      vertx.close().await();
    }
  }
}
