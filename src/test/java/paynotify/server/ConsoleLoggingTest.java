package paynotify.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;

/**
 * The shipped logging set up in code: what logback.xml said (INFO to standard output in our pattern,
 * libraries quieter), and a file of logback's own left to logback: an operator's, or the tests'
 * logback-test.xml. Real processes log through it in every process test that waits for an INFO line.
 */
class ConsoleLoggingTest {
  @Test
  void consoleAtInfoWithTheLibrariesQuieter() {
    LoggerContext context = new LoggerContext();
    ConsoleLogging logging = new ConsoleLogging(false, false);
    logging.setContext(context);
    assertThat(logging.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.INFO);
    assertThat(root.getAppender("CONSOLE")).isInstanceOf(ConsoleAppender.class);
    assertThat(((ConsoleAppender<?>) root.getAppender("CONSOLE")).getTarget()).isEqualTo("System.out");
    assertThat(root.getAppender("CONSOLE").isStarted()).isTrue();
    assertThat(context.getLogger("paynotify.cli.ServeCommand").isInfoEnabled()).isTrue();
    assertThat(context.getLogger("io.netty.channel.DefaultChannelPipeline").isInfoEnabled()).isFalse();
    assertThat(context.getLogger("org.flywaydb.core.FlywayExecutor").isWarnEnabled()).isTrue();
    assertThat(context.getLogger("org.flywaydb.core.internal.proprietaryStubs.ErrorOverridesSupportStub")
        .isWarnEnabled()).isFalse();
    assertThat(context.getLogger("org.mariadb.jdbc.Driver").isWarnEnabled()).isFalse();
  }

  @Test
  void aFileOfLogbacksOwnIsLeftToLogback() {
    LoggerContext context = new LoggerContext();
    ConsoleLogging logging = new ConsoleLogging(true, false);
    logging.setContext(context);
    assertThat(logging.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("CONSOLE")).isNull();
  }

  /** A command's log must not mix with its output (reconcile --json, read by the daily close and by scripts). */
  @Test
  void aCommandLogsToStandardError() {
    LoggerContext context = new LoggerContext();
    ConsoleLogging logging = new ConsoleLogging(false, true);
    logging.setContext(context);
    logging.configure(context);
    assertThat(((ConsoleAppender<?>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("CONSOLE")).getTarget())
        .isEqualTo("System.err");
  }

  /** This JVM has no -Dlogback.configurationFile, but the tests' logback-test.xml on its class path. */
  @Test
  void theTestsLogbackTestXmlIsSuchAFile() {
    assertThat(System.getProperty("logback.configurationFile")).isNull();
    LoggerContext context = new LoggerContext();
    ConsoleLogging logging = new ConsoleLogging();
    logging.setContext(context);
    assertThat(logging.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
  }
}
