package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import paynotify.store.CountedPool.ConnectionLost;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** A command whose database connection died during its use exits as any database failure: 3, one line. */
class CommandSupportTest {
  @Command(name = "lost")
  static final class Lost extends CommandSupport {
    @Override
    int run() {
      throw new ConnectionLost("booking");
    }
  }

  @Test
  void aConnectionLostExitsWithTheDatabaseCode() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new Lost()).setErr(new PrintWriter(err)).execute();
    assertThat(code).isEqualTo(ExitCode.DATABASE).isEqualTo(3);
    assertThat(err.toString()).startsWith("paynotify: database: the database connection closed during its use");
  }
}
