package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import paynotify.cli.ExitCode;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.server.Pools;
import paynotify.setup.migrate.Jdbc;
import paynotify.store.Database;
import paynotify.store.OrdersTable;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TlsCertificates;

/**
 * database.tls on a server that offers TLS (the embedded MariaDB 11.4 does by default, with a certificate it
 * generates): the service's pooled sessions and every JDBC connection (Flyway, the orders check, the tools) are
 * encrypted, as the server itself reports (Ssl_cipher); without it, neither is. The RSA-key authentication of
 * MySQL 8 cannot run here: MariaDB has no caching_sha2_password, so a configured key is only shown to be harmless.
 */
@ExtendWith(VertxExtension.class)
class DatabaseTlsTest extends DatabaseTestBase {
  @TempDir
  Path dir;

  @BeforeAll
  static void serverOffersTls() {
    Assumptions.assumeTrue("YES".equals(db.string("SELECT @@have_ssl")),
        "the test server offers no TLS (have_ssl " + db.string("SELECT @@have_ssl") + "): DatabaseWithoutTlsTest covers it");
  }

  @Test
  void tlsEncryptsThePoolAndJdbc(Vertx vertx) throws Exception {
    DatabaseSettings tls = settings(new JsonObject().put("tls", true));
    assertThat(pooledCipher(vertx, tls)).isNotEmpty();
    assertThat(jdbcCipher(tls)).isNotEmpty();
    assertThat(Schema.migrate(tls, OrdersTable.byDefault(), Set.of(), "test")).isZero(); // Flyway and the orders check, over TLS
  }

  @Test
  void withoutTlsNothingIsEncrypted(Vertx vertx) throws Exception {
    DatabaseSettings plain = settings(new JsonObject());
    assertThat(pooledCipher(vertx, plain)).isEmpty();
    assertThat(jdbcCipher(plain)).isEmpty();
  }

  @Test
  void theServersOwnCertificateAsCaIsVerifiedByBothClients(Vertx vertx) throws Exception {
    Path ca = TlsCertificates.serverCertificate(db.settings().host(), db.settings().port(), dir.resolve("server.pem"));
    DatabaseSettings verified = settings(new JsonObject().put("tls", true).put("tls_ca_file", ca.toString()));
    assertThat(pooledCipher(vertx, verified)).isNotEmpty();
    assertThat(jdbcCipher(verified)).isNotEmpty();
  }

  @Test
  void aCertificateNotSignedByTheCaStopsTheStartNamingTheKey(Vertx vertx) throws Exception {
    Path foreign = TlsCertificates.foreignCa(dir.resolve("other-ca.pem"));
    JsonObject keys = new JsonObject().put("tls", true).put("tls_ca_file", foreign.toString());
    // The pool alone (the start reaches it only after JDBC): refused as a setting, never waited for.
    Throwable pooled = catchThrowable(() -> pooledCipher(vertx, settings(keys)));
    assertThat(pooled).isNotNull();
    assertThat(DatabaseWait.notUpYet(pooled)).isFalse();
    assertThat(DatabaseSecurityErrors.advice(pooled, true)).startsWith(DatabaseSecurityErrors.CERTIFICATE_NOT_TRUSTED);

    try (ServiceProcess service = ServiceProcess.start(db.settings(), new JsonObject().put("database", keys), dir)) {
      assertThat(service.exitCode(Duration.ofSeconds(60))).isEqualTo(ExitCode.UNUSABLE);
      assertThat(service.lastErrorLine()).startsWith("paynotify: " + dir.resolve("application.yaml") + ": database: ")
          .contains("is not signed by database.tls_ca_file");
    }
  }

  @Test
  void aServerKeyIsHarmlessWhereNoneIsAskedFor(Vertx vertx) throws Exception {
    // MariaDB never asks for the RSA key (no caching_sha2_password): this proves only that setting it breaks nothing.
    Path key = TlsCertificates.rsaPublicKey(dir.resolve("public_key.pem"));
    DatabaseSettings withKey = settings(new JsonObject().put("server_public_key_file", key.toString()));
    assertThat(pooledCipher(vertx, withKey)).isEmpty();
    assertThat(jdbcCipher(withKey)).isEmpty();
  }

  /** The test server, with these database.* keys read as from the file (validation included). */
  private static DatabaseSettings settings(JsonObject keys) {
    DatabaseSettings s = db.settings();
    JsonObject database = new JsonObject().put("host", s.host()).put("port", s.port()).put("name", s.name())
        .put("user", s.user()).put("password", s.password()).mergeIn(keys);
    return AppConfig.from(new JsonObject().put("database", database), "test", Map.of()).database();
  }

  /** Ssl_cipher of a session of the service's own pool (built as the service builds it): empty when not encrypted. */
  private static String pooledCipher(Vertx vertx, DatabaseSettings settings) throws Exception {
    Database pool = Pools.connect(vertx, settings);
    try {
      return pool.inTransaction(conn -> conn.query("SHOW SESSION STATUS LIKE 'Ssl_cipher'").execute())
          .map(rows -> rows.iterator().next().getString(1))
          .await(10, TimeUnit.SECONDS);
    } finally {
      pool.close();
    }
  }

  /** Ssl_cipher of a connection on the URL Flyway, the orders check and the tools use. */
  private static String jdbcCipher(DatabaseSettings settings) throws Exception {
    try (Connection c = Jdbc.open(settings); ResultSet rs = c.createStatement().executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
      rs.next();
      return rs.getString(2);
    }
  }
}
