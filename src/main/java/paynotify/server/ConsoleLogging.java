package paynotify.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The service's logging: one line per event on standard output, INFO and up, libraries quieter; a command's
 * on standard error, so that its output (reconcile --json, status --json) is only its own. Set up
 * in code, found by logback as a service (META-INF/services): its XML configurator, the parser and
 * the model it builds are some 400 classes, 1.5 MB of metaspace kept for the life of the process.
 * When logback has a file of its own to read, it reads that instead: {@code -Dlogback.configurationFile=FILE}
 * (in JAVA_OPTS), or by logback's convention a {@code logback-test.xml} on the class path (the tests').
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class ConsoleLogging extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

  private static final Map<String, Level> LEVELS = Map.of(
      // Netty and the embedded server's console are noise for a site owner.
      "io.netty", Level.WARN,
      "io.vertx", Level.INFO,
      "ch.vorburger", Level.WARN,
      "org.flywaydb", Level.WARN,
      // The server's note on V1's CREATE TABLE IF NOT EXISTS orders on every site with its own orders
      // table ("Table 'orders' already exists"): expected, not a warning. Failed statements still stop the start.
      "org.flywaydb.core.internal.proprietaryStubs.ErrorOverridesSupportStub", Level.ERROR,
      "org.mariadb.jdbc", Level.ERROR,
      // vertx-micrometer-metrics registers some gauges again at every connection and request (its issue #259);
      // each repeat shares the first one's counter (values are right) and Micrometer ignores it, but logs the
      // first as "This Gauge has been already registered": a WARN at every start with nothing to do. The
      // logger's other WARNs are about registering meters too, ours included: back to WARN once #259 is fixed.
      "io.micrometer.core.instrument.MeterRegistry", Level.ERROR);

  /** Set (by the command line's entry) for every command but serve: its log goes to standard error. */
  public static final String TO_STDERR = "paynotify.log_to_stderr";

  private final boolean fileGiven;
  private final boolean toStderr;

  /** As logback finds it (META-INF/services). */
  public ConsoleLogging() {
    this(System.getProperty("logback.configurationFile") != null
        || ConsoleLogging.class.getClassLoader().getResource("logback-test.xml") != null,
        Boolean.getBoolean(TO_STDERR));
  }

  ConsoleLogging(boolean fileGiven, boolean toStderr) {
    this.fileGiven = fileGiven;
    this.toStderr = toStderr;
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (fileGiven) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY; // read by logback's own configurator
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("CONSOLE");
    console.setTarget(toStderr ? "System.err" : "System.out");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(console);
    LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
