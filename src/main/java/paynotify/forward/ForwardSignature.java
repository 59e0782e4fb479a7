package paynotify.forward;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Paynotify-Signature} header, Stripe's scheme so that any Stripe verification snippet
 * works: {@code t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>}. Signed at each
 * attempt, so {@code t} says when it was sent and an old request can be refused as a replay.
 */
public final class ForwardSignature {
  private final SecretKeySpec key;

  public ForwardSignature(String secret) {
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  public String header(long unixSeconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update((unixSeconds + ".").getBytes(StandardCharsets.US_ASCII));
      return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
