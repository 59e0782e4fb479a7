package paynotify.testsupport;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
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

/** WeChat Pay platform certificates (平台证书) for the tests: self-signed, with exactly the serial asked for. */
public final class PlatformCertificates {
  private PlatformCertificates() {}

  /** A self-signed certificate with exactly this serial, signed by the JDK over a TBS that BouncyCastle encodes. */
  public static X509Certificate selfSigned(KeyPair pair, BigInteger serial) {
    return selfSigned(pair, serial, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofDays(365)));
  }

  /** The same, valid from {@code notBefore} to {@code notAfter} (an expired one, one about to expire). */
  public static X509Certificate selfSigned(KeyPair pair, BigInteger serial, Instant notBefore, Instant notAfter) {
    try {
      AlgorithmIdentifier sha256WithRsa =
          new AlgorithmIdentifier(PKCSObjectIdentifiers.sha256WithRSAEncryption, DERNull.INSTANCE);
      X500Name name = new X500Name("CN=Tenpay.com Root CA test");
      V3TBSCertificateGenerator tbs = new V3TBSCertificateGenerator();
      tbs.setSerialNumber(new ASN1Integer(serial));
      tbs.setSignature(sha256WithRsa);
      tbs.setIssuer(name);
      tbs.setSubject(name);
      tbs.setStartDate(new Time(Date.from(notBefore)));
      tbs.setEndDate(new Time(Date.from(notAfter)));
      tbs.setSubjectPublicKeyInfo(SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded()));
      TBSCertificate toSign = tbs.generateTBSCertificate();
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(pair.getPrivate());
      signer.update(toSign.getEncoded(ASN1Encoding.DER));
      ASN1EncodableVector certificate = new ASN1EncodableVector();
      certificate.add(toSign);
      certificate.add(sha256WithRsa);
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
