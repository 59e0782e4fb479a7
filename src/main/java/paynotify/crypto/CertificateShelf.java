package paynotify.crypto;

import io.vertx.core.Future;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * Where the certificates a platform's client fetched itself are kept for every instance: WeChat Pay's downloaded
 * platform certificates, Alipay's re-issued one. The database is behind it ({@code store.PlatformCertificates}, wired
 * by the server): channels never touch the database themselves. Only what was verified goes on the shelf, and
 * what comes off it is checked again as far as it can be (a row in the site's database is no safer than the
 * database).
 */
public interface CertificateShelf {
  /** Every certificate kept so far, by any instance. */
  Future<List<Shelved>> kept();

  /**
   * Keeps {@code chain}, the certificate first and then what issued it (so that a reader can check it again), under
   * {@code serial}, as the platform names it; again, it notes it was listed now.
   */
  Future<Void> keep(String serial, List<X509Certificate> chain);

  /** One kept certificate and its chain; {@code fetchedAt} the last time the platform listed it to any instance. */
  record Shelved(String serial, List<X509Certificate> chain, Instant fetchedAt) {
    /** The certificate itself. */
    public X509Certificate certificate() {
      return chain.get(0);
    }
  }
}
