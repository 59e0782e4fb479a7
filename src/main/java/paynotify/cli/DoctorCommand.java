package paynotify.cli;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.function.Predicate;
import paynotify.channel.NotifyChannel;
import paynotify.channel.wechat.WechatV3Channel;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.doctor.Checkup;
import paynotify.doctor.DatabaseClock;
import paynotify.doctor.KeyChecks;
import paynotify.doctor.NotifyUrl;
import paynotify.doctor.RefusedNotifications;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * doctor: the configuration looked over as the start would read it, and then some: each finding says what is wrong,
 * where, and what to change. The checks are paynotify.doctor's; this opens the database as every tool does (the
 * schema and the orders table checked there) and asks the probe.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
    description = "Look the configuration over: each platform's keys (the kind each key says, Alipay's 应用公钥 in"
        + " place of 支付宝公钥, WeChat's key lengths, the WeChat merchant key against its certificate and serial;"
        + " Paddle's, Stripe's and Creem's keys live or test as where they are used, an API key where a webhook"
        + " secret belongs, TokenPay's sample ApiToken), certificates' expiry, the secret files' owners and modes,"
        + " the database's clock, the orders table, the keys the notifications refused lately were signed with, the"
        + " public notify URL (alerts.probe_url)."
        + " Exit 0: nothing wrong; 1: findings, each with what to change where; 2: the configuration cannot be read.")
final class DoctorCommand extends CommandSupport {
  @Option(names = "--json", description = "one JSON object: config, findings (where, what, change), checked,"
      + " not_checked")
  boolean json;

  @Override
  int run() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      JsonObject settings = AppConfig.settings(vertx, config, System.getenv()).await(); // unreadable: exit 2
      Checkup checkup = new Checkup(config.toString());
      KeyChecks.run(settings, checkup, Clock.systemUTC());
      AppConfig read = null;
      try {
        read = AppConfig.load(vertx, config, System.getenv()).await();
      } catch (ConfigException e) {
        checkup.refused(e);
        checkup.skipped("the database, its clock, the orders table, the public notify URL: the start stops at the"
            + " configuration first");
      }
      if (read != null) {
        database(read, checkup);
        NotifyUrl.check(vertx, read.alerts() == null ? null : read.alerts().watched().probeUrl(), checkup);
      }
      out().println(json ? checkup.toJson().encodePrettily() : checkup.text());
      out().flush();
      return checkup.findings().isEmpty() ? 0 : ExitCode.FOUND;
    } finally {
      vertx.close().await();
    }
  }

  /** The database as the tools open it (migrated, the orders table checked: setup/Schema), then its clock. */
  private void database(AppConfig read, Checkup checkup) throws Exception {
    if (!answers(read.database(), checkup)) {
      checkup.skipped("the database's schema, its clock, the orders table, the notifications refused lately: the"
          + " database did not answer");
      return;
    }
    try (CliDatabase db = CliDatabase.open(config, read); Connection session = db.connect()) {
      checkup.checked("the database answers, its schema is current, the orders table fits orders.*");
      DatabaseClock.check(session, db.settings().timeZone(), Clock.systemUTC(), checkup);
      RefusedNotifications.check(session, wechatV3Knows(read), checkup);
    } catch (ConfigException e) {
      checkup.refused(e);
      checkup.skipped("the database's clock, the notifications refused lately: the database could not be used");
    } catch (SQLException e) {
      checkup.found("database", "the database failed: " + e.getMessage(),
          "make it answer (its error log says why), then run paynotify doctor again");
    }
  }

  /** Whether the WeChat Pay v3 channel, as configured, has the key a serial names (none without the channel). */
  private static Predicate<String> wechatV3Knows(AppConfig read) {
    for (NotifyChannel channel : read.channels().enabled()) {
      if (channel instanceof WechatV3Channel v3) {
        return v3.signature()::knows;
      }
    }
    return serial -> false;
  }

  /** A configured server answers at all (the embedded one is started by CliDatabase): else a finding, what to fix. */
  private static boolean answers(DatabaseSettings db, Checkup checkup) {
    if (db.embedded()) {
      return true;
    }
    try {
      CliDatabase.reach(db);
      return true;
    } catch (SQLException e) {
      checkup.found("database.host", "the database " + db + " does not answer: " + e.getMessage(), "start"
          + " MySQL/MariaDB there (systemctl status mariadb; its error log says why it stopped), or set database.host,"
          + " port, name, user and password (or PAYNOTIFY_DATABASE_PASSWORD) to the server's; then run paynotify"
          + " doctor again");
      return false;
    }
  }
}
