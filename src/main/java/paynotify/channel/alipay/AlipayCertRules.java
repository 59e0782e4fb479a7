package paynotify.channel.alipay;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import javax.security.auth.x500.X500Principal;
import paynotify.crypto.Digests;
import paynotify.crypto.PublicKeys;

/**
 * Alipay's public-key certificate mode (公钥证书模式) as alipay-sdk-java's {@code AntCertificationUtil} computes it:
 * a certificate's SN ({@code app_cert_sn}, {@code alipay_cert_sn}), the root file's SN ({@code alipay_root_cert_sn})
 * and whether a certificate (or a chain, as alipayCertPublicKey_RSA2.crt may hold) was issued by a root of
 * alipayRootCert.crt ({@code isTrusted}).
 */
public final class AlipayCertRules {
  /** PKCS#1: sha1WithRSA, sha256WithRSA, ...; the root file also holds SM2 and ECC roots, left out of its SN. */
  private static final String RSA_SIGNATURES = "1.2.840.113549.1.1";

  private AlipayCertRules() {}

  /** The SDK's {@code getCertSN}: MD5 of the issuer's DN (RFC 2253, as Java writes it) and the decimal serial. */
  public static String sn(X509Certificate cert) {
    // the SDK's getBytes() is in the platform charset: a DN of ASCII (Alipay's are) is the same in UTF-8
    return Digests.md5Hex(cert.getIssuerX500Principal().getName() + cert.getSerialNumber());
  }

  /** The SDK's {@code getRootCertSN}: the SNs of the root file's RSA-signed certificates, joined by {@code _}; null when none. */
  public static String rootSn(List<X509Certificate> roots) {
    StringJoiner sn = new StringJoiner("_");
    rsaRoots(roots).forEach(c -> sn.add(sn(c)));
    return sn.length() == 0 ? null : sn.toString();
  }

  /** The roots of alipayRootCert.crt that count: the RSA-signed ones (the SDK skips the SM2 roots beside them). */
  public static List<X509Certificate> rsaRoots(List<X509Certificate> roots) {
    return roots.stream().filter(c -> c.getSigAlgOID().startsWith(RSA_SIGNATURES)).toList();
  }

  /**
   * The SDK's {@code isTrusted}: the certificates put in issuing order by their names, every one valid at
   * {@code now}, the topmost signed by a root (found by its subject), each other by the one above it.
   */
  public static boolean chains(List<X509Certificate> certs, List<X509Certificate> roots, Instant now) {
    List<X509Certificate> chain = ordered(certs);
    if (chain == null) {
      return false;
    }
    Map<X500Principal, X509Certificate> bySubject = new HashMap<>();
    roots.forEach(r -> bySubject.put(r.getSubjectX500Principal(), r));
    X509Certificate issuer = bySubject.get(chain.get(0).getIssuerX500Principal());
    if (issuer == null) {
      return false;
    }
    for (X509Certificate cert : chain) {
      if (!PublicKeys.validAt(cert, now)) {
        return false;
      }
      try {
        cert.verify(issuer.getPublicKey());
      } catch (GeneralSecurityException e) {
        return false;
      }
      issuer = cert;
    }
    return true;
  }

  /** The SDK's {@code sortByDn}: from the top down; null when they do not make one chain. */
  private static List<X509Certificate> ordered(List<X509Certificate> certs) {
    Map<X500Principal, X509Certificate> bySubject = new HashMap<>();
    Map<X500Principal, X509Certificate> byIssuer = new HashMap<>();
    int selfSigned = 0;
    for (X509Certificate c : certs) {
      selfSigned += selfSigned(c) ? 1 : 0;
      bySubject.put(c.getSubjectX500Principal(), c);
      byIssuer.put(c.getIssuerX500Principal(), c);
    }
    if (selfSigned > 1) {
      return null;
    }
    List<X509Certificate> chain = new ArrayList<>();
    for (X509Certificate up = certs.get(0); up != null && !chain.contains(up);
        up = selfSigned(up) ? null : bySubject.get(up.getIssuerX500Principal())) {
      chain.add(0, up);
    }
    for (X509Certificate down = byIssuer.get(certs.get(0).getSubjectX500Principal());
        down != null && !selfSigned(down) && !chain.contains(down);
        down = byIssuer.get(down.getSubjectX500Principal())) {
      chain.add(down);
    }
    return chain.size() == certs.size() ? chain : null;
  }

  private static boolean selfSigned(X509Certificate c) {
    return c.getSubjectX500Principal().equals(c.getIssuerX500Principal());
  }
}
