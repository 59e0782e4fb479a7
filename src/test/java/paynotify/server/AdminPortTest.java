package paynotify.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.admin.Monitoring;
import paynotify.cli.Main;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.ServiceProcess;

/** admin.port: unset, it follows http.port (a second instance needs one key changed); set, it is as given. */
class AdminPortTest {
  @Test
  void unsetItFollowsTheNotifyPort() {
    AppConfig config = config("{\"http\":{\"port\":8082}}");
    assertThat(config.admin().port()).isEqualTo(8083);
    assertThat(config.admin().followsHttpPort()).isTrue();
    assertThat(config("{}").admin().port()).as("the shipped default, http.port 8080").isEqualTo(8081);
    // Empty is unset, as for every key: an empty variable must not turn the listener (and metrics) off.
    assertThat(config("{\"http\":{\"port\":8082},\"admin\":{\"port\":\"\"}}").admin().port()).isEqualTo(8083);
    assertThat(AppConfig.from(new JsonObject("{\"http\":{\"port\":8082}}"), "app.yaml",
        Map.of("PAYNOTIFY_ADMIN_PORT", "")).admin().port()).as("PAYNOTIFY_ADMIN_PORT=").isEqualTo(8083);
  }

  @Test
  void setItKeepsItsMeaning() {
    AppConfig config = config("{\"http\":{\"port\":8082},\"admin\":{\"port\":9100}}");
    assertThat(config.admin().port()).isEqualTo(9100);
    assertThat(config.admin().followsHttpPort()).isFalse();
    assertThat(config("{\"http\":{\"port\":8082},\"admin\":{\"port\":0}}").admin()).as("0: off").isNull();
    assertThat(AppConfig.from(new JsonObject("{\"http\":{\"port\":8082}}"), "app.yaml",
        Map.of("PAYNOTIFY_ADMIN_PORT", "0")).admin()).as("PAYNOTIFY_ADMIN_PORT=0: off").isNull();
  }

  @Test
  void aNotifyPortWithoutANextOneWantsTheAdminPortSet() {
    for (int port : new int[] {0, 65535}) {
      assertThatThrownBy(() -> config("{\"http\":{\"port\":" + port + "}}")).isInstanceOf(ConfigException.class)
          .hasMessage("app.yaml: admin.port: unset, it is http.port + 1, and http.port " + port + " has none:"
              + " set admin.port (0: off)");
    }
  }

  @Test
  void aTakenFollowingPortSaysWhichKeysGiveAnother() throws Exception {
    int http = ServiceProcess.freePorts(2);
    try (ServerSocket taken = new ServerSocket(http + 1, 1, InetAddress.getLoopbackAddress())) {
      AppConfig config = config("{\"http\":{\"port\":" + http + "},\"database\":{\"host\":\"127.0.0.1\",\"port\":1}}");
      Monitoring monitoring = Monitoring.start(config.admin());
      try {
        assertThatThrownBy(() -> PayNotifyServer.listen(monitoring, config, config.database(), Main.class).await())
            .isInstanceOf(ConfigException.class)
            .hasMessageStartingWith("admin.port: cannot listen on 127.0.0.1:" + (http + 1) + " ")
            .hasMessageContaining("Another paynotify on this machine? Give this one other ports: another http.port"
                + " (admin.port, unset, is http.port + 1), or an admin.port of its own (0: off)");
      } finally {
        monitoring.vertx().close().await();
      }
    }
  }

  private static AppConfig config(String json) {
    return AppConfig.from(new JsonObject(json), "app.yaml", Map.of());
  }
}
