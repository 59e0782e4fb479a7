package paynotify.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A merchant's RSA private key (Alipay's application private key, WeChat Pay v3's apiclient_key.pem):
 * it signs requests to the platform, and it can move money (refunds), so it is opt-in and read only from
 * a file that the service's user owns and nobody else can read. Its bytes never reach a message, a log
 * or {@link #toString()}.
 */
public final class MerchantKey {
  private static final Set<PosixFilePermission> SHARED = Set.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

  /** A PEM line naming what follows ({@code -----BEGIN <label>-----}, and its END). */
  private static final Pattern ARMOUR = Pattern.compile("-----(?:BEGIN|END) ([A-Z0-9 ]+)-----");
  /** The label of the only form read: PKCS#8, unencrypted. */
  private static final String PKCS8 = "PRIVATE KEY";

  private final PrivateKey key;

  private MerchantKey(PrivateKey key) {
    this.key = key;
  }

  /**
   * Reads the PKCS#8 key in {@code file} (PEM, or the bare base64 that Alipay's key tool writes).
   *
   * @throws IllegalArgumentException saying what is wrong with the file (never its content)
   */
  public static MerchantKey read(Path file) {
    String text;
    try {
      requirePrivate(file);
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("file " + file.toAbsolutePath() + " does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": " + e.getMessage());
    }
    return parse(text, file.toAbsolutePath().toString());
  }

  /** The key in {@code text}; {@code where} names it in messages. */
  static MerchantKey parse(String text, String where) {
    Matcher armour = ARMOUR.matcher(text);
    // no armour: the bare base64 Alipay's key tool writes, PKCS#8 as its label would say
    String label = armour.find() ? armour.group(1) : PKCS8;
    if (!label.equals(PKCS8)) {
      throw new IllegalArgumentException(where + switch (label) {
        case "RSA " + PKCS8 -> " is a PKCS#1 key: convert it once with openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW"
            + " and name NEW";
        case "ENCRYPTED " + PKCS8 -> " is encrypted: give the key without a passphrase (openssl pkcs8 -topk8"
            + " -nocrypt), readable by the service's user only";
        default -> " holds a " + label.toLowerCase(Locale.ROOT) + ", not the merchant's private key";
      });
    }
    PrivateKey key;
    try {
      key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
          Base64.getDecoder().decode(ARMOUR.matcher(text).replaceAll("").replaceAll("\\s", ""))));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException(where + " is not a PKCS#8 RSA private key");
    }
    if (key instanceof RSAPrivateCrtKey rsa && rsa.getModulus().bitLength() < 2048) {
      throw new IllegalArgumentException(where + ": RSA key has " + rsa.getModulus().bitLength()
          + " bits; the platforms issue 2048");
    }
    return new MerchantKey(key);
  }

  /**
   * The file must be the service user's and not readable or writable by its group or others: a key that
   * moves money is not left where another account of the machine can take it. No link is followed.
   */
  private static void requirePrivate(Path file) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException e) {
      return; // not a POSIX file system: nothing to check with
    }
    if (!attributes.isRegularFile()) {
      throw new IllegalArgumentException(file.toAbsolutePath() + " is not a regular file (a link is not followed)");
    }
    String user = System.getProperty("user.name");
    String owner = attributes.owner().getName();
    if (!owner.equals(user)) {
      throw new IllegalArgumentException(file.toAbsolutePath() + " is owned by " + owner + ", not by " + user
          + " (the service's user): chown " + user + " " + file.toAbsolutePath());
    }
    if (attributes.permissions().stream().anyMatch(SHARED::contains)) {
      throw new IllegalArgumentException(file.toAbsolutePath() + " can be read or written by other users: chmod 600 "
          + file.toAbsolutePath());
    }
  }

  /** The base64 SHA256withRSA signature of {@code content}. */
  public String sign(byte[] content) {
    try {
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(key);
      signer.update(content);
      return Base64.getEncoder().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA256withRSA with an RSA key read at start cannot fail: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "MerchantKey[not shown]";
  }
}
