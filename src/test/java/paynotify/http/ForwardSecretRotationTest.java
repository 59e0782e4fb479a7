package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.SiteReceiver.Request;
import paynotify.testsupport.SiteReceiver;
import paynotify.testsupport.StandardWebhooks;
import paynotify.testsupport.TestService;

/**
 * forward.secret_files [new, old]: while a secret is rotated every delivery carries a Standard Webhooks
 * signature for each, newest first, so the site can switch to the new one before or after paynotify does.
 * The old header, Paynotify-Signature, is keyed with the newest.
 */
class ForwardSecretRotationTest extends DatabaseTestBase {
  private static final ChannelFixture alipay = ChannelFixture.alipay();
  private static final String OLD = "fwd_rotation-test-old-0a1b2c3d";
  private static final String NEW = "whsec_" + Base64.getEncoder().encodeToString(
      "rotated-secret-for-the-test-2026".getBytes(StandardCharsets.UTF_8));

  @TempDir
  Path dir;

  @Test
  void whileASecretIsRotatedEachDeliveryCarriesBothSignatures() throws Exception {
    Path newFile = PrivateFile.write(dir.resolve("forward.new"), NEW);
    Path oldFile = PrivateFile.write(dir.resolve("forward.old"), OLD + "\n");
    try (SiteReceiver site = SiteReceiver.start();
        TestService service = TestService.start(db.settings(), new JsonObject().put("forward", new JsonObject()
            .put("url", site.url())
            .put("secret_files", new JsonArray().add(newFile.toString()).add(oldFile.toString()))
            .put("timeout_ms", 1000)))) {
      db.insertOrder("FWrot", 900);
      assertThat(service.send(alipay.payment("FWrot", "T-FWrot", 900, 0))).matches(alipay.success());
      Request r = site.await(q -> q.answered() == 200, Duration.ofSeconds(20));
      String id = r.eventId();
      long t = Long.parseLong(r.header("webhook-timestamp"));

      assertThat(r.header("webhook-id")).isEqualTo(id);
      assertThat(r.header("webhook-signature").split(" ")).containsExactly(
          StandardWebhooks.v1(NEW, id, t, r.bodyText()),
          StandardWebhooks.v1(StandardWebhooks.whsec(OLD), id, t, r.bodyText()));
      assertThat(ForwardDeliveryTest.signatureVerifies(r.header("Paynotify-Signature"), r.body(), NEW)).isTrue();
    }
  }
}
