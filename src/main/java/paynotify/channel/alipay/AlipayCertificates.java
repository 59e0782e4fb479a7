package paynotify.channel.alipay;

import io.vertx.core.Future;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.security.auth.x500.X500Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Ids;
import paynotify.crypto.CertificateShelf;
import paynotify.crypto.RsaSignatureCheck;

/**
 * A certificate-mode (公钥证书模式) merchant's certificates: the SNs every OpenAPI request carries, the root that a
 * re-issued Alipay certificate must chain to, and the Alipay certificates known by their SN, the configured one
 * and those Alipay re-issued since (newest first: the one Alipay uses from then on). Shared by the notify channel
 * and the clients, so a certificate one of them learns, all use.
 */
public final class AlipayCertificates {
  private static final Logger LOG = LoggerFactory.getLogger(AlipayCertificates.class);
  /** At most one look at the shelf a minute: a notification that verifies with no key must not query it each time. */
  private static final Duration SHELF_EVERY = Duration.ofMinutes(1);
  /** At most one download of an SN in this time: an answer naming an SN that fails must not call Alipay each time. */
  static final Duration DOWNLOAD_EVERY = Duration.ofMinutes(5);

  /** One download of an SN, and when it started. */
  private record Attempt(Instant at, Future<Void> result) {}

  /** An Alipay certificate, its SN, its key and when it is valid (read once: each notification asks). */
  record Known(String sn, X509Certificate certificate, RsaSignatureCheck key, Instant from, Instant until) {
    boolean validAt(Instant now) {
      return !now.isBefore(from) && !now.isAfter(until);
    }
  }

  private final String appCertSn;
  private final String rootCertSn;
  private final List<X509Certificate> roots;
  private final String configuredSn;
  /** Alipay's own name: the intermediate CA that issues its certificate issues every merchant's too. */
  private final X500Principal alipaySubject;
  private final String jca;
  private final Clock clock;
  private final List<Known> newestFirst = new CopyOnWriteArrayList<>();
  private final Map<String, Attempt> downloads = new ConcurrentHashMap<>();
  private final AtomicReference<Instant> shelfRead = new AtomicReference<>(Instant.EPOCH);
  /** The rows of the shelf refused so far: each is told once, not at every read. */
  private final Set<String> refusedRows = ConcurrentHashMap.newKeySet();
  private volatile CertificateShelf shelf;

  /**
   * @param appCert    appCertPublicKey_&lt;appid&gt;.crt's (first) certificate
   * @param alipayCert alipayCertPublicKey_RSA2.crt's (first) certificate: the key notifications and answers verify with
   * @param roots      alipayRootCert.crt's certificates
   * @throws IllegalArgumentException when the root file holds no RSA-signed certificate (no root SN to send)
   */
  public AlipayCertificates(X509Certificate appCert, X509Certificate alipayCert, List<X509Certificate> roots,
      AlipaySignature.Algorithm algorithm, Clock clock) {
    this.appCertSn = AlipayCertRules.sn(appCert);
    this.rootCertSn = AlipayCertRules.rootSn(roots);
    if (rootCertSn == null) {
      throw new IllegalArgumentException("holds no RSA-signed root certificate: not alipayRootCert.crt");
    }
    this.roots = List.copyOf(roots);
    this.jca = algorithm.jca;
    this.clock = clock;
    this.configuredSn = AlipayCertRules.sn(alipayCert);
    this.alipaySubject = alipayCert.getSubjectX500Principal();
    newestFirst.add(known(alipayCert));
  }

  /** {@code app_cert_sn}: the SN of the application's certificate. */
  public String appCertSn() {
    return appCertSn;
  }

  /** {@code alipay_root_cert_sn}: the SNs of the root file's RSA certificates. */
  public String rootCertSn() {
    return rootCertSn;
  }

  /** The SN of alipay.alipay_cert_file's certificate. */
  public String configuredSn() {
    return configuredSn;
  }

  /** Keeps what is re-issued on {@code shelf} from now on, and looks there for what other instances kept. */
  public void keepIn(CertificateShelf shelf) {
    this.shelf = shelf;
  }

  /** The key of the certificate named {@code sn}, or null when it is not known here or not valid now. */
  RsaSignatureCheck key(String sn) {
    Instant now = clock.instant();
    for (Known k : newestFirst) {
      if (k.sn().equals(sn) && k.validAt(now)) {
        return k.key();
      }
    }
    return null;
  }

  /**
   * Whether {@code sign} is Alipay's over {@code content} with a known certificate: the one {@code namedSn} names
   * when it names a known one, else each, newest first (a notification names none in most versions); only those
   * valid now (one that expired is no longer Alipay's word).
   */
  boolean verifies(byte[] content, String sign, String namedSn) {
    RsaSignatureCheck named = namedSn == null ? null : key(namedSn);
    if (named != null) {
      return named.verifies(content, sign);
    }
    Instant now = clock.instant();
    for (Known k : newestFirst) {
      if (k.validAt(now) && k.key().verifies(content, sign)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why {@code chain} (leaf first) is not Alipay's, or null when it is: issued by the configured root and valid now
   * (the SDK's isTrusted), and named as the configured Alipay certificate (the SDK does not look: the intermediate
   * CA issues every merchant's application certificate too, and each would chain).
   */
  String refusal(List<X509Certificate> chain) {
    if (!AlipayCertRules.chains(chain, roots, clock.instant())) {
      return "it does not chain to alipay.alipay_root_cert_file's root, or is not valid now";
    }
    X500Principal subject = chain.get(0).getSubjectX500Principal();
    if (!subject.equals(alipaySubject)) {
      return "it is issued to " + Ids.printable(subject.getName()) + ", not to " + alipaySubject.getName()
          + " as alipay.alipay_cert_file's certificate";
    }
    return null;
  }

  /** Uses {@code cert} (already found trusted) from now on, before the ones known so far. */
  synchronized void adopt(X509Certificate cert) {
    String sn = AlipayCertRules.sn(cert);
    newestFirst.removeIf(k -> k.sn().equals(sn));
    newestFirst.add(0, known(cert));
  }

  /**
   * Keeps a re-issued certificate for every instance with the rest of its {@code chain} as Alipay sent it (its
   * intermediate), so that a reader can check it again (nothing without a shelf).
   */
  Future<Void> keep(List<X509Certificate> chain) {
    CertificateShelf s = shelf;
    return s == null ? Future.succeededFuture() : s.keep(AlipayCertRules.sn(chain.get(0)), chain);
  }

  /**
   * Adopts what other instances kept (at most once a minute): true when a certificate not known before was found.
   * Each row is checked again as a download is ({@link #refusal}): the table is in the site's database, and a row
   * anyone who can write there put in would otherwise make forged notifications verify. Never fails: when the
   * shelf cannot be read, nothing is found (told at WARN), and a signature that did not verify stays refused.
   */
  Future<Boolean> fromStore() {
    CertificateShelf s = shelf;
    Instant last = shelfRead.get();
    Instant now = clock.instant();
    if (s == null || now.isBefore(last.plus(SHELF_EVERY)) || !shelfRead.compareAndSet(last, now)) {
      return Future.succeededFuture(false);
    }
    return s.kept().map(this::adoptChecked).otherwise(err -> {
      LOG.warn("Alipay certificates re-issued and kept by other instances not read (platform_certificates): {};"
          + " read again in at most {} minute(s)", err.getMessage(), SHELF_EVERY.toMinutes());
      return false;
    });
  }

  private boolean adoptChecked(List<CertificateShelf.Shelved> shelved) {
    boolean found = false;
    for (CertificateShelf.Shelved kept : shelved) {
      X509Certificate cert = kept.certificate();
      if (key(AlipayCertRules.sn(cert)) != null) {
        continue;
      }
      String refusal = refusal(kept.chain());
      if (refusal == null) {
        adopt(cert);
        found = true;
      } else if (refusedRows.add(kept.serial())) {
        LOG.warn("platform_certificates holds an Alipay certificate, serial {}, that is not used: {}; the service"
            + " keeps only certificates that pass this check: delete the row, and find who else writes to the"
            + " database", Ids.printable(kept.serial()), refusal);
      }
    }
    return found;
  }

  /**
   * {@code download} of {@code sn}, started at most once in {@link #DOWNLOAD_EVERY}: the answers that name it
   * meanwhile share its outcome, a refusal included.
   */
  Future<Void> downloadOnce(String sn, Supplier<Future<Void>> download) {
    Instant now = clock.instant();
    downloads.values().removeIf(a -> !now.isBefore(a.at().plus(DOWNLOAD_EVERY))); // bounded: only recent ones stay
    return downloads.computeIfAbsent(sn, k -> new Attempt(now, download.get())).result();
  }

  private Known known(X509Certificate cert) {
    return new Known(AlipayCertRules.sn(cert), cert, RsaSignatureCheck.of(cert.getPublicKey(), jca),
        cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant());
  }
}
