package paynotify.cli;

import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import paynotify.alert.AlertClients;
import paynotify.alert.Alerts;
import paynotify.alert.SelfProbe;
import paynotify.config.AlertsConfig;
import paynotify.config.AppConfig;
import paynotify.config.ToolUser;
import paynotify.net.OutboundHttp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** alerts: the owner's alert targets; and probe, which checks the way the platforms' notifications come. */
@Command(name = "alerts", mixinStandardHelpOptions = true, subcommands = AlertsCommand.Test.class,
    description = "The alert targets of the configuration (alerts:).")
final class AlertsCommand extends ParentCommand {

  /** alerts test: one message to every target, now, saying which failed and why. */
  @Command(name = "test", mixinStandardHelpOptions = true,
      description = "Send one test message to every configured alert target (past the throttle and the quiet hours)."
          + " Exit 0: every target took it; 1: one or more did not (each says why); 2: none configured, or a"
          + " configuration error.")
  static final class Test extends CommandSupport {
    @Override
    int run() {
      Vertx vertx = Vertx.vertx();
      try {
        AppConfig app = AppConfig.load(vertx, config, System.getenv()).await();
        ToolUser.refuseRoot(app, config);
        AlertsConfig alerts = app.alerts();
        if (!alerts.on()) {
          return fail(ExitCode.UNUSABLE, config + ": no alert target is configured (alerts: in the configuration;"
              + " docs/alerts.md)");
        }
        AlertClients clients = new AlertClients(vertx, alerts.telegramProxy());
        Alerts sender = new Alerts(vertx, alerts.build(clients), alerts.settings(), alerts.texts(), Clock.systemUTC());
        Map<String, String> results = sender.sendNow(sender.test()).await();
        sender.close();
        clients.close().await();
        results.forEach((target, failure) -> out().println(target + ": " + (failure == null ? "sent"
            : "NOT sent: " + failure)));
        out().flush();
        return results.values().stream().allMatch(f -> f == null) ? 0 : ExitCode.FOUND;
      } finally {
        vertx.close().await();
      }
    }
  }

  /** probe URL: this service reached through the public notify address, as the platforms reach it. */
  @Command(name = "probe", mixinStandardHelpOptions = true,
      description = "POST to the public notify address (https://your.site" + SelfProbe.PATH + ") through DNS, TLS, a"
          + " CDN and nginx, and check that paynotify answered it. Exit 0: it did; 1: something else answered, or"
          + " nothing (the line says what); 2: not a URL. It cannot tell whether the platforms' own addresses are"
          + " let through.")
  static final class Probe extends CommandSupport {
    @Parameters(paramLabel = "URL", description = "e.g. https://shop.example.com" + SelfProbe.PATH)
    URI url;

    @Override
    int run() {
      if (!url.isAbsolute() || !url.getScheme().matches("https?") || url.getHost() == null) {
        return fail(ExitCode.UNUSABLE, "'" + url + "' is not an http(s) URL, e.g. https://shop.example.com"
            + SelfProbe.PATH);
      }
      Vertx vertx = Vertx.vertx();
      OutboundHttp http = new OutboundHttp(vertx, Duration.ofSeconds(10), 4096);
      try {
        new SelfProbe(http).probe(url).await();
        out().println(url + " reaches paynotify");
        out().flush();
        return 0;
      } catch (IllegalStateException e) {
        return fail(ExitCode.FOUND, e.getMessage());
      } finally {
        http.close().await();
        vertx.close().await();
      }
    }
  }
}
