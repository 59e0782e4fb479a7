package paynotify.setup;

import io.netty.handler.ssl.NotSslRecordException;
import io.vertx.sqlclient.DatabaseException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;

/**
 * The clients' refusals that a {@link paynotify.config.DatabaseSecurity} setting fixes, each said as what to set. They
 * are answers, not a server still starting (the JDBC one for TLS even has SQL state 08000): waiting
 * would not change them, so the start stops with this line (exit 2).
 */
final class DatabaseSecurityErrors {
  static final String NEEDS_TLS_OR_KEY = "MySQL 8 authentication (caching_sha2_password) over TCP needs TLS or the"
      + " server's RSA public key: set database.tls: true, or database.server_public_key_file";
  static final String NO_TLS_ON_SERVER = "database.tls is true but the server does not offer TLS: enable TLS on the"
      + " server (SHOW GLOBAL VARIABLES LIKE 'have_ssl' says YES), or set database.tls: false (MySQL 8 then needs"
      + " database.server_public_key_file)";
  static final String PLUGIN_NEEDS_TLS = "the account's authentication plugin sends the password in clear, which"
      + " needs TLS: set database.tls: true";
  static final String CERTIFICATE_NOT_TRUSTED = "the server's TLS certificate is not signed by database.tls_ca_file:"
      + " set it to the CA that signed the server's certificate (MySQL: ca.pem in its data directory), or leave it"
      + " empty to encrypt without verifying";

  // The exact texts, from the client sources of the versions in pom.xml:
  // MariaDB Connector/J 3.5.7, plugin/authentication/standard/CachingSha2PasswordPlugin.java:244 (SQL state S1009),
  // thrown on a full authentication without TLS, without serverRsaPublicKeyFile and allowPublicKeyRetrieval off.
  static final String JDBC_NO_RSA_KEY = "RSA public key is not available client side";
  // Connector/J 3.5.7, client/impl/StandardClient.java:249 (SQL state 08000): sslMode asks TLS, the server has none.
  static final String JDBC_NO_TLS_ON_SERVER = "Trying to connect with ssl, but ssl not enabled in the server";
  // Connector/J 3.5.7, client/impl/StandardClient.java:476-478: "Cannot use authentication plugin <name> if SSL is
  // not enabled.", for a plugin that requires TLS (mysql_clear_password).
  static final String JDBC_PLUGIN_NEEDS_TLS = " if SSL is not enabled.";
  // The Vert.x client (vertx-mysql-client 5.0.7) has no error of its own for either: without a key it asks the
  // server for it (impl/codec/AuthenticationCommandBaseCodec.java:60-69), and asked for TLS it sends the TLS request
  // whatever the server offers (impl/codec/InitialHandshakeCommandCodec.java:132-150); a server without TLS answers
  // with an error packet (MariaDB 10.11: 1043 "Bad handshake", SQL state 08S01). Which of the two the client reports
  // is a race (measured on 10.11, DatabaseWithoutTlsTest): the packet itself, as a MySQLException, or Netty's
  // SslHandler refusing it as "not an SSL/TLS record: 16000002ff1304..." (NotSslRecordException).
  static final int BAD_HANDSHAKE = 1043;

  private DatabaseSecurityErrors() {}

  /**
   * What to set, or null when {@code err} is no refusal of the connection's security.
   *
   * @param tls whether TLS was asked for: only then is a "Bad handshake" the server's answer to it
   */
  static String advice(Throwable err, boolean tls) {
    for (Throwable t = err; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage() == null ? "" : t.getMessage();
      if (message.contains(JDBC_NO_RSA_KEY)) {
        return NEEDS_TLS_OR_KEY;
      }
      if (message.contains(JDBC_NO_TLS_ON_SERVER) || t instanceof NotSslRecordException
          || tls && t instanceof DatabaseException db && db.getErrorCode() == BAD_HANDSHAKE) {
        return NO_TLS_ON_SERVER;
      }
      if (message.contains("Cannot use authentication plugin ") && message.contains(JDBC_PLUGIN_NEEDS_TLS)) {
        return PLUGIN_NEEDS_TLS;
      }
      // The chain of trust, never a connection cut during the handshake (a server restarting): that is retried.
      if (t instanceof CertificateException || t instanceof CertPathValidatorException
          || t instanceof CertPathBuilderException) {
        return CERTIFICATE_NOT_TRUSTED + " (" + message.lines().findFirst().orElse("") + ")";
      }
    }
    return null;
  }
}
