package paynotify.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Standard Webhooks signature against the spec's own vector, and the two forms of a secret. */
class WebhookSignatureTest {
  // standard-webhooks: the libraries' test vector (libraries/php/tests/WebhookTest.php and the others)
  private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final byte[] SPEC_BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

  @Test
  void theSpecsVector() {
    assertThat(new WebhookSignature(List.of(SPEC_SECRET)).header("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, SPEC_BODY))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  // forward.secret_files [new, old]: a receiver holding either one verifies, newest first.
  @Test
  void whileASecretIsRotatedBothSign() {
    String old = "0123456789abcdef0123456789abcdef";
    String both = new WebhookSignature(List.of(SPEC_SECRET, old)).header("evt_1", 1614265330, SPEC_BODY);
    assertThat(both.split(" ")).containsExactly(
        new WebhookSignature(List.of(SPEC_SECRET)).header("evt_1", 1614265330, SPEC_BODY),
        new WebhookSignature(List.of(old)).header("evt_1", 1614265330, SPEC_BODY));
  }

  // A secret of before Standard Webhooks is keyed with its own bytes: to a library, whsec_ and their base64.
  @Test
  void aPlainSecretIsTheWhsecOfItsBytes() {
    String plain = "0123456789abcdef0123456789abcdef";
    String whsec = "whsec_" + Base64.getEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    assertThat(new WebhookSignature(List.of(plain)).header("evt_1", 1, SPEC_BODY))
        .isEqualTo(new WebhookSignature(List.of(whsec)).header("evt_1", 1, SPEC_BODY));
  }
}
