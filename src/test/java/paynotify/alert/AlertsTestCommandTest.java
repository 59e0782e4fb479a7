package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import paynotify.cli.ExitCode;
import paynotify.testsupport.Cli;

/** {@code paynotify alerts test}: one message to every target, each said sent or not and why; none configured is 2. */
class AlertsTestCommandTest {
  @Test
  void everyTargetGetsOneMessageAndAFailingOneIsNamedWithItsReason() {
    try (ServiceStandIn wecom = ServiceStandIn.start(r -> ServiceStandIn.Reply.json(new JsonObject()
        .put("errcode", 0).put("errmsg", "ok")))) {
      String yaml = "alerts:\n  language: en\n  wecom:\n    webhook_url: \"" + wecom.url("/cgi-bin/webhook/send?key=K1")
          + "\"\n";
      Cli.Result ok = Cli.runConfigured(yaml, "alerts", "test");
      assertThat(ok.exit()).as(ok.err()).isZero();
      assertThat(ok.out()).isEqualTo("wecom: sent\n");
      assertThat(wecom.request().json().getJsonObject("markdown").getString("content"))
          .isEqualTo("paynotify test message\nIf you read this, alerts reach you.");

      Cli.Result down = Cli.runConfigured(yaml + "  bark:\n    url: \"" + ServiceStandIn.unreachable("/DEVICEKEY")
          + "\"\n", "alerts", "test");
      assertThat(down.exit()).isEqualTo(ExitCode.FOUND);
      assertThat(down.out()).contains("wecom: sent\n").contains("bark: NOT sent: bark: POST http://127.0.0.1:")
          .doesNotContain("DEVICEKEY");
    }
  }

  @Test
  void noTargetConfiguredIsSaid() {
    Cli.Result r = Cli.run("alerts", "test");
    assertThat(r.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(r.err()).contains("no alert target is configured");
  }
}
