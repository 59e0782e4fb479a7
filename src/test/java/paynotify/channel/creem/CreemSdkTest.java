package paynotify.channel.creem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.CreemNotifications;
import paynotify.testsupport.CreemSdk;
import paynotify.testsupport.NodeReceiver;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;

/**
 * Creem's own SDK (creem_io, run by node) and paynotify agree on what Creem signed: the SDK's test fixture, and
 * the test tree's signer's events, accepted by both and booked once; a tampered body or another secret refused
 * by both.
 */
class CreemSdkTest extends ServiceTestBase {
  @BeforeAll
  static void install() {
    assumeTrue(NodeReceiver.available(), "node and npm are not installed: Creem's SDK is not run");
    CreemSdk.install();
  }

  @Test
  void theSdkAcceptsItsOwnTestsEventUnderTheVectorsSignature() {
    byte[] body = CreemNotifications.SDK_BODY.getBytes(StandardCharsets.UTF_8);
    assertThat(CreemSdk.verdict(CreemNotifications.SDK_SECRET, body, CreemNotifications.SDK_SIGNATURE))
        .startsWith("accepted checkout.completed");
    assertThat(CreemSdk.verdict("whsec_test_secret_124", body, CreemNotifications.SDK_SIGNATURE))
        .isEqualTo("rejected Invalid webhook signature");
  }

  @Test
  void aPaymentAndItsRefundSignedHereAreAcceptedByTheSdkAndBookedOnce() {
    db.insertOrder("CS1", 2500);
    Notification paid = CreemNotifications.signed(CreemNotifications.event("evt_cs1", "checkout.completed",
        CreemNotifications.checkout("CS1", "ord_CS1", 2500, CreemNotifications.CURRENCY)));
    Notification refunded = CreemNotifications.signed(CreemNotifications.event("evt_ref_cs1", "refund.created",
        CreemNotifications.refund("ref_CS1", "ord_CS1", 1000, "succeeded", CreemNotifications.CURRENCY)));

    assertThat(sdk(paid)).isEqualTo("accepted checkout.completed CS1 2500");
    assertThat(sdk(refunded)).isEqualTo("accepted refund.created ref_CS1 1000");
    assertThat(service.send(paid).status()).isEqualTo(200);
    assertThat(service.send(paid).status()).isEqualTo(200);
    assertThat(service.send(refunded).status()).isEqualTo(200);

    assertThat(db.payments("ord_CS1")).isEqualTo(1);
    assertThat(db.orderStatus("CS1")).isEqualTo("partially_refunded");
  }

  @Test
  void aTamperedBodyOrAnotherSecretIsRefusedByBoth() {
    db.insertOrder("CS2", 2500);
    Notification genuine = CreemNotifications.signed(CreemNotifications.event("evt_cs2", "checkout.completed",
        CreemNotifications.checkout("CS2", "ord_CS2", 2500, CreemNotifications.CURRENCY)));
    Notification tampered = genuine.withBody(new String(genuine.body(), StandardCharsets.UTF_8)
        .replace("\"amount_paid\":2500", "\"amount_paid\":25"));
    Notification otherSecret = CreemNotifications.signed(new String(genuine.body(), StandardCharsets.UTF_8),
        CreemNotifications.OTHER_SECRET);

    for (Notification forged : new Notification[] {tampered, otherSecret}) {
      assertThat(sdk(forged)).isEqualTo("rejected Invalid webhook signature");
      assertThat(service.send(forged).status()).isEqualTo(401);
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  private static String sdk(Notification n) {
    return CreemSdk.verdict(CreemNotifications.SECRET, n.body(), n.headers().get(CreemNotifications.HEADER));
  }
}
