package paynotify.channel.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;

/** Stripe-Signature as stripe-java's Webhook.Signature.verifyHeader checks it, on a fixed clock. */
class StripeSignatureTest {
  private static final String SECRET = "whsec_test_secret";
  private static final long T = 1_700_000_000L;
  private static final byte[] BODY = "{\"id\":\"evt_test\",\"object\":\"event\"}".getBytes(StandardCharsets.UTF_8);
  private static final String V1 = "8042376f6ca064adbe037642a718227dfd59047137eb49497a54c49eb0cfb724";

  private static StripeSignature at(long now, String... secrets) {
    return new StripeSignature(List.of(secrets), Duration.ofSeconds(300), false,
        Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC));
  }

  @Test
  void theKnownVector() throws Exception {
    assertThat(StripeSignature.sign(SECRET, T, BODY)).isEqualTo(V1);
    at(T + 10, SECRET).verify("t=" + T + ",v1=" + V1, BODY);
  }

  @Test
  void eitherOfTwoSecretsDuringARoll() throws Exception {
    at(T, "whsec_old_one", SECRET).verify("t=" + T + ",v1=" + V1, BODY);
    at(T, SECRET, "whsec_new_one").verify("t=" + T + ",v1=" + V1, BODY);
    String byNew = StripeSignature.sign("whsec_new_one", T, BODY);
    at(T, SECRET, "whsec_new_one").verify("t=" + T + ",v1=" + byNew, BODY);
    assertRejected(at(T, "whsec_old_one", "whsec_other"), "t=" + T + ",v1=" + V1, BODY, Reason.BAD_SIGNATURE);
  }

  @Test
  void anyOfSeveralV1Passes() throws Exception {
    String wrong = "0".repeat(64);
    at(T, SECRET).verify("t=" + T + ",v1=" + wrong + ",v1=" + V1 + ",v0=" + wrong, BODY);
    at(T, SECRET).verify("t=" + T + ",v1=" + V1 + ",v1=" + wrong, BODY);
    at(T, SECRET).verify("t=" + T + ",t=" + (T + 1) + ",v1=" + V1, BODY); // the first t, as stripe-java
    assertRejected(at(T, SECRET), "t=" + T + ",v1=" + wrong + ",v1=" + wrong.replace('0', 'a'), BODY,
        Reason.BAD_SIGNATURE);
  }

  @Test
  void tamperedBodyOrTimestampIsRejected() {
    byte[] tampered = "{\"id\":\"evt_test\",\"object\":\"evenT\"}".getBytes(StandardCharsets.UTF_8);
    assertRejected(at(T, SECRET), "t=" + T + ",v1=" + V1, tampered, Reason.BAD_SIGNATURE);
    assertRejected(at(T, SECRET), "t=" + (T + 1) + ",v1=" + V1, BODY, Reason.BAD_SIGNATURE);
    assertRejected(at(T, SECRET), "t=" + T + ",v1=" + V1.toUpperCase(), BODY, Reason.BAD_SIGNATURE);
  }

  @Test
  void staleTimestampIsRejectedAtTheTolerance() throws Exception {
    at(T + 300, SECRET).verify("t=" + T + ",v1=" + V1, BODY);
    assertRejected(at(T + 301, SECRET), "t=" + T + ",v1=" + V1, BODY, Reason.STALE_TIMESTAMP);
  }

  @Test
  void futureTimestampIsAccepted() {
    assertThatCode(() -> at(T - 3600, SECRET).verify("t=" + T + ",v1=" + V1, BODY)).doesNotThrowAnyException();
  }

  @Test
  void missingOrMalformedHeader() {
    assertRejected(at(T, SECRET), null, BODY, Reason.MISSING_SIGNATURE);
    assertRejected(at(T, SECRET), "v1=" + V1, BODY, Reason.MISSING_SIGNATURE);
    assertRejected(at(T, SECRET), "t=" + T, BODY, Reason.MISSING_SIGNATURE);
    assertRejected(at(T, SECRET), "t=" + T + ",v0=" + V1, BODY, Reason.MISSING_SIGNATURE);
    assertRejected(at(T, SECRET), "t=abc,v1=" + V1, BODY, Reason.MISSING_SIGNATURE);
  }

  private static void assertRejected(StripeSignature s, String header, byte[] body, Reason reason) {
    assertThatThrownBy(() -> s.verify(header, body)).isInstanceOf(RejectedNotification.class)
        .extracting(e -> ((RejectedNotification) e).reason()).isEqualTo(reason);
  }
}
