package paynotify.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;

/**
 * The RSA channels in a real process, with AWS-LC checking their signatures (as shipped for x86-64
 * Linux) and without it (its native library cannot be unpacked, as under a noexec or read-only tmpdir):
 * the start-up log says which checks them, and either way genuine notifications are booked and
 * notifications signed by another key are refused.
 */
class RsaEngineProcessTest extends DatabaseTestBase {
  private static final List<ChannelFixture> RSA_CHANNELS = List.of(ChannelFixture.alipay(), ChannelFixture.wechatV3());

  @TempDir
  Path dir;

  @Test
  void awsLcChecksTheSignaturesOfARealProcess() throws Exception {
    assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"));
    bookAndRefuse("native", List.of(), "RSA signatures checked by AWS-LC (AmazonCorrettoCryptoProvider 2.");
  }

  @Test
  void theJdkChecksThemWhereAwsLcCannotLoad() throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("tmpdir-is-a-file"), "");
    bookAndRefuse("jdk", List.of("-Dcom.amazon.corretto.crypto.provider.tmpdir=" + notADirectory),
        "RSA signatures checked by the JDK (AWS-LC did not load: ");
  }

  private void bookAndRefuse(String run, List<String> jvmOptions, String engineLine) throws Exception {
    try (ServiceProcess service = ServiceProcess.start(db.settings(), new JsonObject(),
        Files.createDirectories(dir.resolve(run)), jvmOptions)) {
      service.awaitHealth(200, Duration.ofSeconds(60));
      service.awaitLogLine(engineLine, Duration.ofSeconds(5));
      for (ChannelFixture channel : RSA_CHANNELS) {
        String order = run + "-" + channel.name();
        db.insertOrder(order, 1234);
        assertThat(Http.send(service.port(), channel.signedByAnotherKey(order, "F-" + order, 1234)))
            .matches(channel.refusal());
        assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = ?", order)).isZero();
        assertThat(Http.send(service.port(), channel.payment(order, "T-" + order, 1234, 0))).matches(channel.success());
        assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = ? AND trade_no = ?", order, "T-" + order))
            .isEqualTo(1);
      }
    }
  }
}
