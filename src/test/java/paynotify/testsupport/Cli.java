package paynotify.testsupport;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import paynotify.cli.Main;

/** The command-line tools, run in this JVM against the test database, output captured. */
public final class Cli {
  private Cli() {}

  public record Result(int exit, String out, String err) {}

  /** A configuration file that points the tools at the test database. */
  public static Path config() {
    return config("test-cli.yaml", "");
  }

  /** The same followed by {@code yaml}, for a tool run in a JVM of its own. */
  public static Path config(String yaml) {
    return config("test-cli-process.yaml", yaml);
  }

  /** The same, followed by {@code yaml} (further sections, e.g. forward:). */
  private static Path config(String name, String yaml) {
    var s = TestDatabase.get().settings();
    Path file = Path.of("target", name);
    try {
      Files.writeString(file, String.join("\n", "database:", "  host: " + s.host(), "  port: " + s.port(),
          "  name: " + s.name(), "  user: " + s.user(), "  password: \"" + s.password() + "\"", yaml));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return file;
  }

  /** {@code paynotify <args> --config <test config>}. */
  public static Result run(String... args) {
    return run(config(), args);
  }

  /** {@code paynotify <args>} with the test configuration followed by {@code yaml}. */
  public static Result runConfigured(String yaml, String... args) {
    return run(config("test-cli-configured.yaml", yaml), args);
  }

  /** {@code paynotify <args> --config <config>}. */
  public static Result run(Path config, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--config");
    all.add(config.toString());
    int exit = Main.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
        .execute(all.toArray(String[]::new));
    return new Result(exit, out.toString(), err.toString());
  }
}
