package paynotify.testsupport;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.asn1.x509.Time;
import org.bouncycastle.asn1.x509.V3TBSCertificateGenerator;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

/**
 * Platform certificates for the tests, with exactly the serial asked for: WeChat Pay's platform certificates (平台证书,
 * self-signed), Alipay's certificate-mode chains ({@link AlipayCertificateFiles}).
 */
public final class PlatformCertificates {
  private PlatformCertificates() {}

  /** A self-signed certificate with exactly this serial, signed by the JDK over a TBS that BouncyCastle encodes. */
  public static X509Certificate selfSigned(KeyPair pair, BigInteger serial) {
    return selfSigned(pair, serial, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofDays(365)));
  }

  /** The same, valid from {@code notBefore} to {@code notAfter} (an expired one, one about to expire). */
  public static X509Certificate selfSigned(KeyPair pair, BigInteger serial, Instant notBefore, Instant notAfter) {
    return issued(pair.getPublic(), "CN=Tenpay.com Root CA test", pair.getPrivate(), "CN=Tenpay.com Root CA test",
        serial, notBefore, notAfter);
  }

  /**
   * A certificate of {@code subjectKey} named {@code subject}, issued by {@code issuer} and signed with
   * {@code issuerKey} (SHA256withRSA, or SHA256withECDSA for an EC key), with exactly this serial.
   */
  public static X509Certificate issued(PublicKey subjectKey, String subject, PrivateKey issuerKey, String issuer,
      BigInteger serial, Instant notBefore, Instant notAfter) {
    try {
      boolean ec = issuerKey.getAlgorithm().equals("EC");
      AlgorithmIdentifier algorithm = ec ? new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA256)
          : new AlgorithmIdentifier(PKCSObjectIdentifiers.sha256WithRSAEncryption, DERNull.INSTANCE);
      V3TBSCertificateGenerator tbs = new V3TBSCertificateGenerator();
      tbs.setSerialNumber(new ASN1Integer(serial));
      tbs.setSignature(algorithm);
      tbs.setIssuer(new X500Name(issuer));
      tbs.setSubject(new X500Name(subject));
      tbs.setStartDate(new Time(Date.from(notBefore)));
      tbs.setEndDate(new Time(Date.from(notAfter)));
      tbs.setSubjectPublicKeyInfo(SubjectPublicKeyInfo.getInstance(subjectKey.getEncoded()));
      TBSCertificate toSign = tbs.generateTBSCertificate();
      Signature signer = Signature.getInstance(ec ? "SHA256withECDSA" : "SHA256withRSA");
      signer.initSign(issuerKey);
      signer.update(toSign.getEncoded(ASN1Encoding.DER));
      ASN1EncodableVector certificate = new ASN1EncodableVector();
      certificate.add(toSign);
      certificate.add(algorithm);
      certificate.add(new DERBitString(signer.sign()));
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
          new ByteArrayInputStream(new DERSequence(certificate).getEncoded(ASN1Encoding.DER)));
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot make a test certificate: " + e, e);
    }
  }

  /** {@code cert} as the PEM file WeChat's console and /v3/certificates give. */
  public static String pem(X509Certificate cert) {
    try {
      return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder().encodeToString(cert.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
