package paynotify.crypto;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/** Reads the RSA public keys (PEM, or the bare base64 Alipay shows) and certificates that platforms hand out. */
public final class PublicKeys {
  private PublicKeys() {}

  /**
   * Parses an X.509 SubjectPublicKeyInfo RSA key, with or without PEM armour.
   *
   * @throws IllegalArgumentException with a message an operator can act on
   */
  public static RSAPublicKey parseRsa(String text) {
    if (text.contains("BEGIN RSA PUBLIC KEY")) {
      throw new IllegalArgumentException(
          "PKCS#1 'RSA PUBLIC KEY' is not supported; use the X.509 'PUBLIC KEY' form the platform shows");
    }
    if (text.contains("PRIVATE KEY")) {
      throw new IllegalArgumentException("this is a private key; give the platform's public key");
    }
    String base64 = text.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
    if (base64.isEmpty()) {
      throw new IllegalArgumentException("the key is empty");
    }
    byte[] der;
    try {
      der = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not base64: " + e.getMessage());
    }
    RSAPublicKey rsa;
    try {
      rsa = (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an X.509 RSA public key (" + e.getMessage() + ")");
    }
    if (rsa.getModulus().bitLength() < 2048) {
      throw new IllegalArgumentException(
          "RSA key has " + rsa.getModulus().bitLength() + " bits; at least 2048 expected");
    }
    return rsa;
  }

  /**
   * Parses a PEM X.509 certificate.
   *
   * @throws IllegalArgumentException with a message an operator can act on
   */
  public static X509Certificate parseCertificate(String pem) {
    try {
      return (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    } catch (CertificateException e) {
      throw new IllegalArgumentException("not a readable X.509 certificate: " + e.getMessage());
    }
  }

  /**
   * Every PEM X.509 certificate in {@code pem}, in order (a chain, or a root file holding several).
   *
   * @throws IllegalArgumentException with a message an operator can act on
   */
  public static List<X509Certificate> parseCertificates(String pem) {
    try {
      List<X509Certificate> all = new ArrayList<>();
      for (Certificate c : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        all.add((X509Certificate) c);
      }
      if (all.isEmpty()) {
        throw new IllegalArgumentException("no certificate in it (a PEM -----BEGIN CERTIFICATE----- block)");
      }
      return all;
    } catch (CertificateException e) {
      throw new IllegalArgumentException("not a readable X.509 certificate: " + e.getMessage());
    }
  }

  /** The certificate's serial as the consoles write it: upper-case hex. */
  public static String serial(X509Certificate certificate) {
    return certificate.getSerialNumber().toString(16).toUpperCase(Locale.ROOT);
  }

  /** Whether {@code certificate} is valid at {@code at}: within its notBefore and notAfter, both included. */
  public static boolean validAt(X509Certificate certificate, Instant at) {
    return !at.isBefore(certificate.getNotBefore().toInstant()) && !at.isAfter(certificate.getNotAfter().toInstant());
  }
}
