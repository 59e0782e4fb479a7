package paynotify.config;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.SslMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * How the password reaches the server over TCP: in a TLS connection ({@code database.tls}, the
 * certificate checked against {@code database.tls_ca_file} when set), or, without TLS, encrypted with
 * the server's RSA public key ({@code database.server_public_key_file}). MySQL 8's default
 * caching_sha2_password needs one of them for a full authentication; MariaDB and
 * mysql_native_password accounts need neither. Applied alike to the Vert.x pool and to JDBC (Flyway,
 * the orders-table check, the tools), so the two never disagree on a server.
 *
 * @param caFile            null: encrypted but not verified (the server's certificate is taken as it is)
 * @param publicKeyFile     null: none configured
 * @param publicKeyPem      the key of {@code publicKeyFile}, re-encoded as plain PEM (Vert.x accepts
 *                          only LF line ends); null when none
 */
public record DatabaseSecurity(boolean tls, Path caFile, Path publicKeyFile, String publicKeyPem) {
  /** No TLS, no key: what a MariaDB or a mysql_native_password account needs. */
  public static final DatabaseSecurity NONE = new DatabaseSecurity(false, null, null, null);

  /** Reads and validates the keys; a file that is missing or not what it should be is a {@link ConfigException}. */
  static DatabaseSecurity from(ConfigReader c) {
    boolean tls = c.bool("database.tls", false);
    Path ca = file(c, "database.tls_ca_file");
    if (ca != null && !tls) {
      throw c.error("database.tls_ca_file", "is set but database.tls is false: set database.tls: true to use it");
    }
    if (ca != null) {
      checkCertificates(c, "database.tls_ca_file", ca);
    }
    Path key = file(c, "database.server_public_key_file");
    return new DatabaseSecurity(tls, ca, key, key == null ? null : publicKeyPem(c, "database.server_public_key_file", key));
  }

  private static Path file(ConfigReader c, String key) {
    String name = c.string(key);
    if (name == null) {
      return null;
    }
    Path file = Path.of(name).toAbsolutePath(); // the clients resolve it later, maybe elsewhere
    if (!Files.isRegularFile(file)) {
      throw c.error(key, "file " + file + " does not exist");
    }
    if (file.toString().contains("&")) { // the JDBC URL carries it, and '&' separates its options
      throw c.error(key, "the path " + file + " contains '&': move or rename the file");
    }
    return file;
  }

  private static void checkCertificates(ConfigReader c, String key, Path file) {
    String notOne = "not a PEM certificate (-----BEGIN CERTIFICATE-----) in " + file;
    try (InputStream in = Files.newInputStream(file)) {
      if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
        throw c.error(key, notOne);
      }
    } catch (CertificateException e) {
      throw c.error(key, notOne + " (" + e.getMessage() + ")");
    } catch (IOException e) {
      throw c.error(key, "cannot read " + file + ": " + e.getMessage());
    }
  }

  /** The RSA public key as both clients read it: X.509 SubjectPublicKeyInfo, PEM (MySQL's public_key.pem). */
  private static String publicKeyPem(ConfigReader c, String key, Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw c.error(key, "cannot read " + file + ": " + e.getMessage());
    }
    int begin = text.indexOf("-----BEGIN PUBLIC KEY-----");
    int end = text.indexOf("-----END PUBLIC KEY-----");
    if (begin < 0 || end < begin) {
      throw c.error(key, "not an RSA public key in PEM (-----BEGIN PUBLIC KEY-----) in " + file
          + ": copy the server's public_key.pem, or the value of SHOW STATUS LIKE 'Caching_sha2_password_rsa_public_key'");
    }
    try {
      byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + 26, end));
      KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
      return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
          + "\n-----END PUBLIC KEY-----\n";
    } catch (Exception e) {
      throw c.error(key, "not a usable RSA public key in " + file + " (" + e.getMessage() + ")");
    }
  }

  /** The Vert.x pool: the same choice as {@link #jdbcParameters()}. */
  public void applyTo(MySQLConnectOptions connect) {
    if (tls) {
      ClientSSLOptions ssl = new ClientSSLOptions().setHostnameVerificationAlgorithm("");
      if (caFile == null) {
        connect.setSslMode(SslMode.REQUIRED).setSslOptions(ssl.setTrustAll(true));
      } else { // the certificate's chain, not its host name: MySQL's own certificates name no host
        connect.setSslMode(SslMode.VERIFY_CA)
            .setSslOptions(ssl.setTrustOptions(new PemTrustOptions().addCertPath(caFile.toString())));
      }
    }
    if (publicKeyPem != null) {
      connect.setServerRsaPublicKeyValue(Buffer.buffer(publicKeyPem));
    }
  }

  /** MariaDB Connector/J's options, to append to the URL ("&name=value"...): empty when none is needed. */
  public String jdbcParameters() {
    StringBuilder options = new StringBuilder();
    if (tls) {
      options.append(caFile == null ? "&sslMode=trust" : "&sslMode=verify-ca&serverSslCert=" + caFile);
    }
    if (publicKeyFile != null) {
      options.append("&serverRsaPublicKeyFile=").append(publicKeyFile);
    }
    return options.toString();
  }
}
