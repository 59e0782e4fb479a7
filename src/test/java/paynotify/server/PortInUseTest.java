package paynotify.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import paynotify.admin.AdminSettings;
import paynotify.http.HttpSettings;

/**
 * A listen the kernel refuses, with the kernel's own two reasons: a port another process holds (most
 * often another paynotify) and a host that is not an address of this machine (a wrong http.host or
 * admin.host), which no second instance explains.
 */
class PortInUseTest {
  private static final String ANOTHER = "Another paynotify on this machine?";
  private static final String ELSEWHERE = "192.0.2.1"; // TEST-NET-1: never an address of this machine

  @Test
  void aTakenPortAsksForAnotherInstancesPorts() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      BindException e = bind("127.0.0.1", taken.getLocalPort());
      assertThat(PortInUse.taken(e)).isTrue();
      assertThat(PortInUse.http(Path.of("app.yaml"), http("127.0.0.1", taken.getLocalPort()), e).getMessage())
          .startsWith("app.yaml: http.port: the port is already in use (127.0.0.1:" + taken.getLocalPort() + ": ")
          .contains(ANOTHER);
      assertThat(PortInUse.admin(admin("127.0.0.1", taken.getLocalPort()), e).getMessage())
          .startsWith("admin.port: cannot listen on 127.0.0.1:" + taken.getLocalPort() + " ")
          .contains(ANOTHER);
    }
  }

  @Test
  void aHostNotOfThisMachineNamesItsKeyAndTheHost() throws Exception {
    BindException e = bind(ELSEWHERE, 8080);
    assertThat(PortInUse.taken(e)).as("a listen refused all the same").isTrue();
    assertThat(PortInUse.http(Path.of("app.yaml"), http(ELSEWHERE, 8080), e).getMessage())
        .isEqualTo("app.yaml: http.host: cannot listen on " + ELSEWHERE + ":8080 (" + e.getMessage() + "): "
            + ELSEWHERE + " is not an address of this machine (127.0.0.1: this machine only, 0.0.0.0: all of its)")
        .doesNotContain(ANOTHER);
    assertThat(PortInUse.admin(admin(ELSEWHERE, 8081), e).getMessage())
        .isEqualTo("admin.host: cannot listen on " + ELSEWHERE + ":8081 (" + e.getMessage() + "): "
            + ELSEWHERE + " is not an address of this machine (127.0.0.1: this machine only, 0.0.0.0: all of its)")
        .doesNotContain(ANOTHER);
  }

  /** What the kernel says to a listen on {@code host:port}. */
  private static BindException bind(String host, int port) throws Exception {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
    } catch (BindException e) {
      return e;
    }
    throw new AssertionError(host + ":" + port + " could be listened on");
  }

  private static HttpSettings http(String host, int port) {
    return new HttpSettings(host, port, 65536, Duration.ofSeconds(10), false, Duration.ofSeconds(10));
  }

  private static AdminSettings admin(String host, int port) {
    return new AdminSettings(host, port, "0123456789abcdef0123", false);
  }
}
