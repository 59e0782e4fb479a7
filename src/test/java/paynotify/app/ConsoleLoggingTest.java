package paynotify.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;

/**
 * The shipped logging set up in code: what logback.xml said (INFO to standard output in our pattern,
 * libraries quieter), and an operator's -Dlogback.configurationFile left to logback. (This JVM runs
 * with that property: tests log as logback-test.xml says.) Real processes log through it in every
 * process test that waits for an INFO line.
 */
class ConsoleLoggingTest {
  @Test
  void consoleAtInfoWithTheLibrariesQuieter() {
    String property = System.clearProperty("logback.configurationFile");
    try {
      LoggerContext context = new LoggerContext();
      ConsoleLogging logging = new ConsoleLogging();
      logging.setContext(context);
      assertThat(logging.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
      Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
      assertThat(root.getLevel()).isEqualTo(Level.INFO);
      assertThat(root.getAppender("STDOUT")).isInstanceOf(ConsoleAppender.class);
      assertThat(root.getAppender("STDOUT").isStarted()).isTrue();
      assertThat(context.getLogger("paynotify.app.ServeCommand").isInfoEnabled()).isTrue();
      assertThat(context.getLogger("io.netty.channel.DefaultChannelPipeline").isInfoEnabled()).isFalse();
      assertThat(context.getLogger("org.flywaydb.core.FlywayExecutor").isWarnEnabled()).isTrue();
      assertThat(context.getLogger("org.flywaydb.core.internal.proprietaryStubs.ErrorOverridesSupportStub")
          .isWarnEnabled()).isFalse();
      assertThat(context.getLogger("org.mariadb.jdbc.Driver").isWarnEnabled()).isFalse();
    } finally {
      if (property != null) {
        System.setProperty("logback.configurationFile", property);
      }
    }
  }

  @Test
  void anOperatorsFileIsLeftToLogback() {
    assertThat(System.getProperty("logback.configurationFile")).isNotNull();
    LoggerContext context = new LoggerContext();
    ConsoleLogging logging = new ConsoleLogging();
    logging.setContext(context);
    assertThat(logging.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT")).isNull();
  }
}
