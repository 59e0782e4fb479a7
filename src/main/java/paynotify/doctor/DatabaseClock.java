package paynotify.doctor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The database's clock against this machine's: paid_at and the bills' days come from the one, the platforms'
 * timestamps and the daily close's hour from the other. Asked on a session pinned to database.time_zone, as every
 * session of the service is, so NOW(6) is read in that offset.
 */
public final class DatabaseClock {
  static final Duration TOLERATED = Duration.ofSeconds(60);

  private DatabaseClock() {}

  /**
   * @param session  a session of the tools' (cli/CliDatabase), its time_zone set to {@code timeZone}
   * @param timeZone database.time_zone, an offset such as +08:00
   */
  public static void check(Connection session, String timeZone, Clock clock, Checkup checkup) throws SQLException {
    LocalDateTime database;
    try (Statement s = session.createStatement(); ResultSet r = s.executeQuery("SELECT NOW(6)")) {
      r.next();
      database = r.getObject(1, LocalDateTime.class);
    }
    LocalDateTime here = LocalDateTime.now(clock.withZone(ZoneOffset.of(timeZone)));
    Duration apart = Duration.between(here, database).abs();
    String said = String.format("%.1f s", apart.toMillis() / 1000.0);
    if (apart.compareTo(TOLERATED) > 0) {
      checkup.found("database clock", "the database server's clock (NOW() " + database + " at " + timeZone + ") and"
          + " this machine's (" + here + ") are " + said + " apart, more than " + TOLERATED.toSeconds() + " s",
          "set the wrong one right and keep both synchronised: timedatectl set-ntp true (or chrony) on this machine"
              + " and on the database server");
    } else {
      checkup.checked("the database's clock against this machine's: " + said + " apart");
    }
  }
}
