package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.NotSslRecordException;
import io.vertx.mysqlclient.MySQLException;
import java.nio.file.Path;
import java.security.cert.CertPathBuilderException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.flywaydb.core.internal.exception.FlywaySqlException;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.DatabaseSecurity;
import paynotify.store.Database;

/**
 * The clients' own words for a connection whose security does not fit the server, each turned into the one line
 * that says what to set, and never mistaken for a server not up yet. The texts are the clients' (sources cited
 * in {@link DatabaseSecurityErrors}); those of MySQL 8 cannot be produced here (no MySQL 8 on this machine, and
 * MariaDB has no caching_sha2_password), so they are copied from Connector/J 3.5.7.
 */
class DatabaseSecurityErrorsTest {
  private static final DatabaseSettings SHOP =
      new DatabaseSettings("db.example", 3306, "shop", "shop", "secret", 8, 256, Duration.ofSeconds(5), 5, null);

  @Test
  void missingRsaKeyOfJdbcSaysSetTlsOrTheServerKey() {
    // CachingSha2PasswordPlugin.java:244 (Connector/J 3.5.7), as Flyway wraps it when it cannot connect.
    Throwable err = new FlywaySqlException("Unable to obtain connection from database",
        new SQLException("RSA public key is not available client side (option serverRsaPublicKeyFile not set)", "S1009"));
    assertThat(DatabaseSecurityErrors.advice(err, false)).isEqualTo(DatabaseSecurityErrors.NEEDS_TLS_OR_KEY);
    assertThat(DatabaseWait.notUpYet(err)).isFalse();
    assertThat(DatabaseRefusal.of(SHOP, "conf/application.yaml", err)).hasMessage(
        "conf/application.yaml: database: cannot connect to shop@db.example:3306/shop: MySQL 8 authentication"
            + " (caching_sha2_password) over TCP needs TLS or the server's RSA public key: set database.tls: true,"
            + " or database.server_public_key_file");
  }

  @Test
  void serverWithoutTlsIsASettingNotAServerStarting() {
    // StandardClient.java:249 (Connector/J 3.5.7): SQL state 08000, the class that otherwise means "not up yet".
    Throwable jdbc = new SQLNonTransientConnectionException(
        "(conn=11) Trying to connect with ssl, but ssl not enabled in the server", "08000");
    // vertx-mysql-client 5.0.7 against MariaDB 10.11 without TLS, either of (a race): the server's error packet
    // to the TLS request, or Netty refusing that packet as a TLS record (its bytes: the same packet).
    Throwable vertxPacket = new MySQLException("Bad handshake", 1043, "08S01");
    Throwable vertxNetty = new NotSslRecordException(
        "not an SSL/TLS record: 16000002ff13042330385330314261642068616e647368616b65");
    for (Throwable err : new Throwable[] {jdbc, vertxPacket, vertxNetty}) {
      assertThat(DatabaseSecurityErrors.advice(err, true)).as("%s", err).isEqualTo(DatabaseSecurityErrors.NO_TLS_ON_SERVER);
      assertThat(DatabaseWait.notUpYet(err)).as("%s", err).isFalse();
    }
    assertThat(DatabaseSecurityErrors.advice(vertxPacket, false)).as("a Bad handshake without TLS asked for").isNull();
  }

  @Test
  void aPluginThatSendsThePasswordInClearNeedsTls() {
    // StandardClient.java:476-478 (Connector/J 3.5.7).
    Throwable err = new SQLNonTransientConnectionException(
        "(conn=5) Cannot use authentication plugin mysql_clear_password if SSL is not enabled.", "08000");
    assertThat(DatabaseSecurityErrors.advice(err, false)).isEqualTo(DatabaseSecurityErrors.PLUGIN_NEEDS_TLS);
    assertThat(DatabaseWait.notUpYet(err)).isFalse();
  }

  @Test
  void anUntrustedCertificateNamesTheCaFile() {
    // As both clients report it on the embedded MariaDB with a foreign CA (DatabaseTlsTest).
    Throwable err = new SSLHandshakeException("PKIX path building failed");
    err.initCause(new CertPathBuilderException("unable to find valid certification path to requested target"));
    assertThat(DatabaseSecurityErrors.advice(err, true)).startsWith(DatabaseSecurityErrors.CERTIFICATE_NOT_TRUSTED)
        .endsWith("(unable to find valid certification path to requested target)");
    assertThat(DatabaseWait.notUpYet(err)).isFalse();
  }

  @Test
  void aServerNotUpYetIsStillWaitedFor() {
    Throwable refused = new SQLNonTransientConnectionException(
        "Socket fail to connect to 127.0.0.1:3306. Connection refused", "08000");
    Throwable cutInHandshake = new SSLHandshakeException("Remote host terminated the handshake"); // a server restarting
    for (Throwable err : new Throwable[] {refused, cutInHandshake}) {
      assertThat(DatabaseSecurityErrors.advice(err, true)).as("%s", err).isNull();
      assertThat(DatabaseWait.notUpYet(err)).as("%s", err).isTrue();
    }
  }

  @Test
  void wrongPasswordWithAServerKeyNamesTheKeyToo() {
    DatabaseSettings withKey = new DatabaseSettings("db.example", 3306, "shop", "shop", "secret", 8, 256,
        Duration.ofSeconds(5), 5, null, new DatabaseSecurity(false, null, Path.of("/etc/paynotify/mysql.pem"), "PEM"),
        Database.BEIJING);
    Throwable denied = new SQLException("Access denied for user 'shop'@'10.0.0.2' (using password: YES)", "28000", 1045);
    assertThat(DatabaseRefusal.of(withKey, "conf/application.yaml", denied).getMessage())
        .endsWith("(check database.user and its password (PAYNOTIFY_DATABASE_PASSWORD or database.password_file),"
            + " and that database.server_public_key_file is this server's)");
  }
}
