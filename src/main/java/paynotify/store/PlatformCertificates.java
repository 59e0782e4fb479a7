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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Platform;
import paynotify.crypto.CertificateShelf;
import paynotify.crypto.PublicKeys;

/**
 * The platforms' certificates the service fetched itself (table platform_certificates, V19), kept where every
 * instance sees them: WeChat Pay's platform certificates ({@link Source#DOWNLOADED}), Alipay's re-issued
 * certificate ({@link Source#REISSUED}), each with its chain. Only what was verified is kept; its readers check it
 * again as far as they can (the table is in the site's database, no safer than the orders table beside it).
 */
public final class PlatformCertificates {
  private static final Logger LOG = LoggerFactory.getLogger(PlatformCertificates.class);

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

  /** One kept certificate and its chain; {@code fetchedAt} the last time the platform listed it. */
  public record Kept(String serial, List<X509Certificate> chain, Source source, Instant fetchedAt) {
    /** The certificate itself. */
    public X509Certificate certificate() {
      return chain.get(0);
    }
  }

  private final Database db;

  public PlatformCertificates(Database db) {
    this.db = db;
  }

  /**
   * Keeps {@code chain} (the certificate first, then what issued it) under {@code serial}, as the platform names it;
   * again: only its fetched_at moves.
   */
  public Future<Void> keep(Platform platform, String serial, List<X509Certificate> chain, Source source) {
    X509Certificate certificate = chain.get(0);
    StringBuilder pem = new StringBuilder();
    chain.forEach(c -> pem.append(pem(c)));
    Tuple row = Tuple.of(platform.code(), serial, pem.toString(), utc(certificate.getNotBefore().toInstant()),
        utc(certificate.getNotAfter().toInstant()), source.stored());
    return db.inTransaction(conn -> conn.preparedQuery(KEEP_PLATFORM_CERTIFICATE).execute(row)).mapEmpty();
  }

  /** {@code platform}'s kept certificates, the one valid longest first. */
  public Future<List<Kept>> kept(Platform platform) {
    return db.inTransaction(conn -> conn.preparedQuery(PLATFORM_CERTIFICATES).execute(Tuple.of(platform.code())))
        .map(rows -> {
          List<Kept> kept = new ArrayList<>();
          for (Row r : rows) {
            try {
              kept.add(new Kept(r.getString(0), PublicKeys.parseCertificates(r.getString(1)),
                  Source.valueOf(r.getString(2).toUpperCase(Locale.ROOT)),
                  r.getLocalDateTime(3).toInstant(ZoneOffset.UTC)));
            } catch (IllegalArgumentException e) { // one row no one could have written: the others still count
              LOG.warn("platform_certificates: {}'s row {} is left out: {}", platform.code(), r.getString(0),
                  e.getMessage());
            }
          }
          return kept;
        });
  }

  /** {@code platform}'s certificates of {@code source}, as its client keeps and reads them. */
  public CertificateShelf shelf(Platform platform, Source source) {
    return new CertificateShelf() {
      @Override
      public Future<List<Shelved>> kept() {
        return PlatformCertificates.this.kept(platform).map(all -> all.stream().filter(k -> k.source() == source)
            .map(k -> new Shelved(k.serial(), k.chain(), k.fetchedAt())).toList());
      }

      @Override
      public Future<Void> keep(String serial, List<X509Certificate> chain) {
        return PlatformCertificates.this.keep(platform, serial, chain, source);
      }
    };
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
