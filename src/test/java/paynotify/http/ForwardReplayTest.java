package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.SiteReceiver.Request;
import paynotify.testsupport.SiteReceiver;
import paynotify.testsupport.StandardWebhooks;
import paynotify.testsupport.TestService;

/**
 * Replay: a delivered event sent again, from the command line and from the admin listener (with its token),
 * with the same id and the same bytes, each attempt signed anew: the site dedupes on webhook-id.
 */
class ForwardReplayTest extends DatabaseTestBase {
  private static final ChannelFixture alipay = ChannelFixture.alipay();
  private static final String SECRET = "fwd_replay-test-5e6f7a8b9c";
  private static final String TOKEN = "replay-admin-token-0123456789";
  private static final Duration WITHIN = Duration.ofSeconds(20);

  @Test
  void aDeliveredEventIsSentAgainWithItsIdAndBytes() throws Exception {
    int admin = ServiceProcess.freePort();
    try (SiteReceiver site = SiteReceiver.start();
        TestService service = TestService.start(db.settings(), new JsonObject()
            .put("forward", new JsonObject().put("url", site.url()).put("secret", SECRET).put("timeout_ms", 1000))
            .put("admin", new JsonObject().put("port", admin).put("token", TOKEN)))) {
      db.insertOrder("RP1", 1200);
      assertThat(service.send(alipay.payment("RP1", "T-RP1", 1200, 0))).matches(alipay.success());
      Request first = site.await(r -> r.answered() == 200, WITHIN);
      String id = first.eventId();
      awaitDelivered(id);

      Cli.Result replay = Cli.run("forward", "replay", "--event", id);
      assertThat(replay.exit()).as(replay.err()).isZero();
      site.awaitCount(2, WITHIN);
      awaitDelivered(id);

      Http.Reply answer = Http.postWithToken(admin, "/forward/events/" + id + "/replay", TOKEN);
      assertThat(answer.status()).isEqualTo(200);
      assertThat(new JsonObject(answer.body())).isEqualTo(new JsonObject().put("event", id).put("replayed", true)
          .put("endpoints", new JsonArray().add(new JsonObject().put("endpoint", "site").put("replayed", true)
              .put("state", "pending"))));
      List<Request> sent = site.awaitCount(3, WITHIN);
      awaitDelivered(id);

      assertThat(sent).allSatisfy(r -> {
        assertThat(r.header("webhook-id")).isEqualTo(id);
        assertThat(r.body()).isEqualTo(first.body());
        assertThat(r.header("webhook-signature")).isEqualTo(StandardWebhooks.v1(StandardWebhooks.whsec(SECRET), id,
            Long.parseLong(r.header("webhook-timestamp")), r.bodyText()));
      });
      assertThat(db.count("SELECT COUNT(*) FROM forward_events")).isEqualTo(1); // one event, sent three times

      assertThat(Http.postWithToken(admin, "/forward/events/evt_00000000000000000000000000000000/replay", TOKEN)
          .status()).isEqualTo(404);
      assertThat(Http.postWithToken(admin, "/forward/events/" + id + "/replay", "wrong-token-0123456789").status())
          .isEqualTo(401);
      assertThat(site.requests()).hasSize(3);
    }
  }

  private static void awaitDelivered(String id) throws InterruptedException {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (!"delivered".equals(db.string("SELECT state FROM forward_events WHERE event_id = ?", id))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("event " + id + " not delivered within " + WITHIN);
      }
      Thread.sleep(50);
    }
  }

}
