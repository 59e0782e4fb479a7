package paynotify.channel.creem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.testsupport.CreemNotifications;

/** creem-signature as Creem's SDK (creem_io resources/webhooks.ts, verifySignature) checks it. */
class CreemSignatureTest {
  private static final byte[] BODY = CreemNotifications.SDK_BODY.getBytes(StandardCharsets.UTF_8);
  private static final CreemSignature SDK = new CreemSignature(CreemNotifications.SDK_SECRET);

  @Test
  void theSdkTestsEventVerifies() throws Exception {
    SDK.verify(CreemNotifications.SDK_SIGNATURE, false, BODY);
    assertThat(CreemSignature.sign(CreemNotifications.SDK_SECRET, BODY)).isEqualTo(CreemNotifications.SDK_SIGNATURE);
  }

  @Test
  void aTamperedBodyOrAnotherSecretIsRefused() {
    byte[] tampered = CreemNotifications.SDK_BODY.replace("evt_123", "evt_999").getBytes(StandardCharsets.UTF_8);
    assertRefused(SDK, CreemNotifications.SDK_SIGNATURE, tampered, Reason.BAD_SIGNATURE);
    assertRefused(new CreemSignature("whsec_test_secret_124"), CreemNotifications.SDK_SIGNATURE, BODY,
        Reason.BAD_SIGNATURE);
    // the SDK compares the bytes of the hex as sent: upper case is another signature
    assertRefused(SDK, CreemNotifications.SDK_SIGNATURE.toUpperCase(), BODY, Reason.BAD_SIGNATURE);
  }

  @Test
  void noHeaderIsAMissingSignatureAndAnotherLengthIsNoSignature() {
    assertRefused(SDK, null, BODY, Reason.MISSING_SIGNATURE);
    assertRefused(SDK, " ", BODY, Reason.MISSING_SIGNATURE);
    assertRefused(SDK, "bad_sig", BODY, Reason.BAD_SIGNATURE); // the SDK test's "rejects invalid signature"
    assertRefused(SDK, CreemNotifications.SDK_SIGNATURE + "00", BODY, Reason.BAD_SIGNATURE);
    assertRefused(SDK, "a".repeat(8000), BODY, Reason.BAD_SIGNATURE);
  }

  private static void assertRefused(CreemSignature signature, String header, byte[] body, Reason reason) {
    assertThatThrownBy(() -> signature.verify(header, false, body)).isInstanceOf(RejectedNotification.class)
        .extracting(e -> ((RejectedNotification) e).reason()).isEqualTo(reason);
  }
}
