package paynotify.testsupport;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks 1.0.0 written here from the spec, apart from the service's signer: the
 * {@code webhook-signature} entry a receiver's library checks, and the {@code whsec_} form of
 * paynotify's secret that a receiver is given (docs/forwarding.md, "The request").
 */
public final class StandardWebhooks {
  private static final String PREFIX = "whsec_";

  private StandardWebhooks() {}

  /** {@code secret} as a library takes it: a whsec_ one as it is, any other's UTF-8 bytes in base64. */
  public static String whsec(String secret) {
    return secret.startsWith(PREFIX) ? secret
        : PREFIX + Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>}, keyed with the bytes {@code whsec} encodes. */
  public static String v1(String whsec, String id, long timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(whsec.substring(PREFIX.length())), "HmacSHA256"));
      byte[] signature = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(signature);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
