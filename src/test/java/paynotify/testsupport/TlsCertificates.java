package paynotify.testsupport;

import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** PEM files for the database TLS tests: the test server's own certificate, a CA that did not sign it, an RSA key. */
public final class TlsCertificates {
  private TlsCertificates() {}

  /**
   * The certificate the MySQL/MariaDB server at {@code host:port} presents, as the last of its chain
   * (MariaDB 11.4's auto-generated one is self-signed, so it is its own CA). Read through the protocol's
   * own upgrade: the server's greeting, an SSLRequest packet, then the TLS handshake, trusting anything.
   */
  public static Path serverCertificate(String host, int port, Path file) throws Exception {
    try (Socket plain = new Socket(host, port)) {
      InputStream in = plain.getInputStream();
      byte[] header = in.readNBytes(4);
      in.readNBytes((header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16); // the greeting
      ByteBuffer sslRequest = ByteBuffer.allocate(4 + 32).order(ByteOrder.LITTLE_ENDIAN);
      sslRequest.put((byte) 32).put((byte) 0).put((byte) 0).put((byte) 1); // length 32, sequence 1
      sslRequest.putInt(0x1 | 0x200 | 0x800 | 0x8000); // LONG_PASSWORD, PROTOCOL_41, SSL, SECURE_CONNECTION
      sslRequest.putInt(16 * 1024 * 1024).put((byte) 45); // max packet, utf8mb4; then 23 zero bytes
      plain.getOutputStream().write(sslRequest.array());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new TrustAnything()}, null);
      try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true)) {
        tls.startHandshake();
        Certificate[] chain = tls.getSession().getPeerCertificates();
        return Files.writeString(file, pem("CERTIFICATE", chain[chain.length - 1].getEncoded()));
      }
    }
  }

  /** A real CA certificate that signed nothing of the test server's: the first of the JDK's trust store. */
  public static Path foreignCa(Path file) throws Exception {
    KeyStore cacerts = KeyStore.getInstance(KeyStore.getDefaultType());
    try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "lib", "security", "cacerts"))) {
      cacerts.load(in, null);
    }
    Certificate ca = cacerts.getCertificate(cacerts.aliases().nextElement());
    return Files.writeString(file, pem("CERTIFICATE", ca.getEncoded()));
  }

  /** A fresh RSA public key in PEM, as MySQL writes public_key.pem. */
  public static Path rsaPublicKey(Path file) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    return Files.writeString(file, pem("PUBLIC KEY", generator.generateKeyPair().getPublic().getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static final class TrustAnything implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
