package paynotify.cli;

import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import paynotify.cli.options.CallerPath;
import paynotify.config.ConfigException;
import paynotify.reconcile.BillFormatException;
import paynotify.store.CountedPool.ConnectionLost;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What the command-line tools share: {@code --config}, and one line on stderr with a distinct
 * exit code for each kind of failure, so that cron can tell them apart.
 */
abstract class CommandSupport implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  // The default is the installation's: conf/application.yaml of a clone (scripts/paynotify and start.sh run in
  // it), the release's /etc/paynotify/application.yaml (its bin/paynotify sets the property). A path given is the
  // caller's.
  @Option(names = "--config", converter = CallerPath.class,
      description = "YAML configuration file (default: ${DEFAULT-VALUE}).")
  Path config = Path.of(System.getProperty(DEFAULT_CONFIG, "conf/application.yaml"));

  /** The system property that names the default configuration file. */
  static final String DEFAULT_CONFIG = "paynotify.config";

  /** The command's work; its return value is the exit code. */
  abstract int run() throws Exception;

  @Override
  public final Integer call() throws Exception {
    try {
      return run();
    } catch (BillFormatException | ConfigException e) {
      return fail(ExitCode.UNUSABLE, e.getMessage());
    } catch (SQLException | DatabaseException | ClosedConnectionException | ConnectionLost | ConnectException e) {
      return fail(ExitCode.DATABASE, "database: " + e.getMessage()); // JDBC, or the Vert.x client (repair book)
    }
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  int fail(int code, String message) {
    spec.commandLine().getErr().println("paynotify: " + message);
    spec.commandLine().getErr().flush();
    return code;
  }
}
