package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A test's listening ports come from below the kernel's ephemeral range: a port picked from inside it
 * may meanwhile become the local end of one of the suite's own outgoing connections.
 */
class FreePortsTest {
  @Test
  void aBlockLiesBelowTheEphemeralRange() throws Exception {
    int low = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).split("\\s+")[0]);
    for (int i = 0; i < 20; i++) {
      int first = ServiceProcess.freePorts(4);
      assertThat(first).isGreaterThanOrEqualTo(20000);
      assertThat(first + 3).as("the block's last port, the ephemeral range starting at %d", low).isLessThan(low);
    }
    assertThat(ServiceProcess.freePort()).isLessThan(low);
  }
}
