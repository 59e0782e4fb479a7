package paynotify.store;

import static paynotify.store.SqlQueries.KEEP_PLATFORM_CERTIFICATE;
import static paynotify.store.SqlQueries.PLATFORM_CERTIFICATES;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import paynotify.channel.Platform;
import paynotify.crypto.PublicKeys;

/**
 * The platforms' certificates the service fetched itself (table platform_certificates, V19), kept where every
 * instance sees them: WeChat Pay's platform certificates ({@link Source#DOWNLOADED}), Alipay's re-issued
 * certificate ({@link Source#REISSUED}). Only what was verified before it was kept: a row here is trusted as the
 * configured files are.
 */
public final class PlatformCertificates {
  /** Why the service holds a certificate. */
  public enum Source {
    /** Kept current by the service: WeChat's /v3/certificates. */
    DOWNLOADED,
    /** The platform re-issued it and the configured file is older: the owner is to replace the file. */
    REISSUED;

    String stored() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One kept certificate; {@code fetchedAt} the last time the platform listed it. */
  public record Kept(String serial, X509Certificate certificate, Source source, Instant fetchedAt) {}

  private final Database db;

  public PlatformCertificates(Database db) {
    this.db = db;
  }

  /** Keeps {@code certificate} under {@code serial}, as the platform names it; again: only its fetched_at moves. */
  public Future<Void> keep(Platform platform, String serial, X509Certificate certificate, Source source) {
    Tuple row = Tuple.of(platform.code(), serial, pem(certificate), utc(certificate.getNotBefore().toInstant()),
        utc(certificate.getNotAfter().toInstant()), source.stored());
    return db.inTransaction(conn -> conn.preparedQuery(KEEP_PLATFORM_CERTIFICATE).execute(row)).mapEmpty();
  }

  /** {@code platform}'s kept certificates, the one valid longest first. */
  public Future<List<Kept>> kept(Platform platform) {
    return db.inTransaction(conn -> conn.preparedQuery(PLATFORM_CERTIFICATES).execute(Tuple.of(platform.code())))
        .map(rows -> {
          List<Kept> kept = new ArrayList<>();
          for (Row r : rows) {
            kept.add(new Kept(r.getString(0), PublicKeys.parseCertificate(r.getString(1)),
                Source.valueOf(r.getString(2).toUpperCase(Locale.ROOT)),
                r.getLocalDateTime(3).toInstant(ZoneOffset.UTC)));
          }
          return kept;
        });
  }

  private static String pem(X509Certificate certificate) {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (CertificateEncodingException e) {
      throw new IllegalArgumentException("a certificate that cannot be encoded", e);
    }
  }

  private static LocalDateTime utc(Instant t) {
    return LocalDateTime.ofInstant(t, ZoneOffset.UTC);
  }
}
