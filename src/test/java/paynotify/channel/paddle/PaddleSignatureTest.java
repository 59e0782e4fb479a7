package paynotify.channel.paddle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.SettableClock;

/**
 * Paddle-Signature against every vector the SDKs publish (research §3.1), each checked twice: the production
 * verifier accepts it, and the test tree's signer (PaddleNotifications) makes the published h1.
 */
class PaddleSignatureTest {
  // paddle-node-sdk src/__tests__/notifications/webhooks-validator.node.test.ts (@b8ee4b12): 2023-11-01T00:00:00Z.
  private static final String NODE_SECRET = "VALID_SECRET";
  private static final long NODE_TS = 1_698_796_800L;
  private static final String NODE_BODY = "{\"data\": [\"1\", \"2\"]}";
  private static final String NODE_H1 = "a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9";
  private static final String NODE_BODY_2 = "{\"data\": \"value\"}";
  private static final String NODE_H1_2 = "28981e941fae76e53db32f3d2a83cb69db41476595e84e1970a1b5d98f62b261";

  // paddle-python-sdk tests/Unit/Notification/test_Verifier.py (@48c8cc04) and paddle-php-sdk VerifierTest.php
  // (@ae0cb621): three secrets tried in order, the first two fail.
  private static final String ROTATION_HEADER =
      "ts=1696195954;h1=dummy;h1=d96299976a6eb066f484d7fde011ac56fc32b38fc9940bc419d6e537fdc6ef02";
  private static final long ROTATION_TS = 1_696_195_954L;
  private static final List<String> ROTATION_SECRETS = List.of(
      "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_TjIG2BXbm83HPXqNfziwe506sBEdqL/4",
      "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_vB/yIOnTOCWIvpBadM5jzBZPHc7OmdSo",
      "pdl_ntf_01hbpjmytsa32fhr36nqgc3kgb_WvRO0eL4Bj9rgYYIBZY6wZhG4EHy9jzh");

  // paddle-python-sdk's two payloads signed by Paddle itself (test_Verifier.py, _fixtures/*.json, read .strip()).
  private static final String FIXTURE_SECRET = "pdl_ntfset_01hs0t3tw21j988db1pam5xg8m_GrOWLNef+vmtjJYq4mSnHNzvc8uWoJ1I";

  private static PaddleSignature at(long now, Duration tolerance, String... secrets) {
    return new PaddleSignature(List.of(secrets), tolerance,
        new SettableClock(Instant.ofEpochSecond(now), ZoneOffset.UTC));
  }

  private static PaddleSignature at(long now, String... secrets) {
    return at(now, PaddleSignature.DEFAULT_TOLERANCE, secrets);
  }

  private static byte[] bytes(String body) {
    return body.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theNodeSdksVectors() throws Exception {
    assertThat(PaddleNotifications.h1(NODE_SECRET, NODE_TS, NODE_BODY)).isEqualTo(NODE_H1);
    assertThat(PaddleNotifications.h1(NODE_SECRET, NODE_TS, NODE_BODY_2)).isEqualTo(NODE_H1_2);
    at(NODE_TS, NODE_SECRET).verify("ts=" + NODE_TS + ";h1=" + NODE_H1, bytes(NODE_BODY));
    // two h1 and an h2 the verifier does not know: ignored, as the node SDK does
    at(NODE_TS, NODE_SECRET).verify("ts=" + NODE_TS + ";h1=" + NODE_H1_2 + ";h1=" + NODE_H1_2 + ";h2=RANDOM_HASH",
        bytes(NODE_BODY_2));
    // the same JSON with more spaces is another body
    assertRejected(at(NODE_TS, NODE_SECRET), "ts=" + NODE_TS + ";h1=" + NODE_H1, "{ \"data\": [ \"1\", \"2\" ]}",
        Reason.BAD_SIGNATURE);
    assertRejected(at(NODE_TS, "INVALID_VALID_SECRET"), "ts=" + NODE_TS + ";h1=" + NODE_H1, NODE_BODY,
        Reason.BAD_SIGNATURE);
    assertRejected(at(NODE_TS, NODE_SECRET), "ts=9876;h1=" + NODE_H1, NODE_BODY, Reason.BAD_SIGNATURE);
    assertRejected(at(NODE_TS, NODE_SECRET), "ts=1234;h1=invalid_signature", NODE_BODY, Reason.BAD_SIGNATURE);
  }

  // The node SDK's window (5 s, its MAX_VALID_TIME_DIFFERENCE) when configured so: valid at +5, refused at +6.
  @Test
  void theNodeSdksTimeWindowWithItsFiveSeconds() throws Exception {
    String header = "ts=" + NODE_TS + ";h1=" + NODE_H1;
    at(NODE_TS + 1, Duration.ofSeconds(5), NODE_SECRET).verify(header, bytes(NODE_BODY));
    at(NODE_TS + 5, Duration.ofSeconds(5), NODE_SECRET).verify(header, bytes(NODE_BODY));
    assertRejected(at(NODE_TS + 6, Duration.ofSeconds(5), NODE_SECRET), header, NODE_BODY, Reason.STALE_TIMESTAMP);
    assertRejected(at(NODE_TS + 4 * 86_400, Duration.ofSeconds(5), NODE_SECRET), header, NODE_BODY,
        Reason.STALE_TIMESTAMP);
  }

  // The node SDK's malformed headers.
  @Test
  void theNodeSdksHeadersWithoutTsOrH1() {
    assertRejected(at(NODE_TS, NODE_SECRET), "invalid_header", NODE_BODY, Reason.MISSING_SIGNATURE);
    assertRejected(at(NODE_TS, NODE_SECRET), "h1=invalid_header", NODE_BODY, Reason.MISSING_SIGNATURE);
    assertRejected(at(NODE_TS, NODE_SECRET), "ts=1234;h2=invalid_header", NODE_BODY, Reason.MISSING_SIGNATURE);
  }

  @Test
  void thePythonAndPhpSdksRotationVector() throws Exception {
    assertThat(PaddleNotifications.h1(ROTATION_SECRETS.get(2), ROTATION_TS, "hello-world"))
        .isEqualTo(ROTATION_HEADER.substring(ROTATION_HEADER.lastIndexOf('=') + 1));
    for (String failing : ROTATION_SECRETS.subList(0, 2)) {
      assertRejected(at(ROTATION_TS, failing), ROTATION_HEADER, "hello-world", Reason.BAD_SIGNATURE);
    }
    // every h1 (a dummy first) against every secret, the good one last
    at(ROTATION_TS, ROTATION_SECRETS.toArray(String[]::new)).verify(ROTATION_HEADER, bytes("hello-world"));
  }

  @Test
  void thePythonSdksPayloadsSignedByPaddle() throws Exception {
    assertFixture("standard_payload", 1_710_498_758L,
        "558bf93944dbeb4790c7a8af6cb2ea435c8ca9c8396aafc1a4e37424ac132744");
    // "\u00dc\u00c4...": Paddle escapes what is not ASCII, and the bytes as received are what is signed
    assertFixture("special_chars_payload", 1_710_498_288L,
        "38219b3ba1578184e625c29d201a27cd25bd69e2ec9c3ab87dcb90d87ff73a41");
  }

  private static void assertFixture(String name, long ts, String h1) throws Exception {
    String body = Files.readString(Path.of("src/test/resources/paddle/" + name + ".json")).strip();
    assertThat(PaddleNotifications.h1(FIXTURE_SECRET, ts, body)).isEqualTo(h1);
    at(ts + 1, FIXTURE_SECRET).verify("ts=" + ts + ";h1=" + h1, bytes(body));
    assertRejected(at(ts, FIXTURE_SECRET), "ts=" + ts + ";h1=" + h1, body.replace("active", "Active"),
        Reason.BAD_SIGNATURE);
  }

  // 300 s by default either way: the SDKs' 5 s past-only is a deliberate deviation (PaddleSignature).
  @Test
  void staleOrFutureTimestampIsRefusedBeyondTheTolerance() throws Exception {
    long ts = 1_795_000_000L;
    String header = "ts=" + ts + ";h1=" + PaddleNotifications.h1("s", ts, "{}");
    at(ts + 300, "s").verify(header, bytes("{}"));
    at(ts - 300, "s").verify(header, bytes("{}"));
    assertRejected(at(ts + 301, "s"), header, "{}", Reason.STALE_TIMESTAMP);
    assertRejected(at(ts - 301, "s"), header, "{}", Reason.STALE_TIMESTAMP);
  }

  @Test
  void tamperedBodyOrTimestampOrWrongSecretIsRefused() {
    long ts = 1_795_000_000L;
    String h1 = PaddleNotifications.h1("secret", ts, "{\"a\":1}");
    assertRejected(at(ts, "secret"), "ts=" + ts + ";h1=" + h1, "{\"a\":2}", Reason.BAD_SIGNATURE);
    assertRejected(at(ts, "secret"), "ts=" + (ts + 1) + ";h1=" + h1, "{\"a\":1}", Reason.BAD_SIGNATURE);
    assertRejected(at(ts, "secret"), "ts=" + ts + ";h1=" + h1.toUpperCase(), "{\"a\":1}", Reason.BAD_SIGNATURE);
    assertRejected(at(ts, "another"), "ts=" + ts + ";h1=" + h1, "{\"a\":1}", Reason.BAD_SIGNATURE);
  }

  // Paddle signs with the old and the new secret while one is rotated: either h1 passes either configuration.
  @Test
  void twoH1DuringARotationAndTwoSecretsConfigured() throws Exception {
    long ts = 1_795_000_000L;
    String both = "ts=" + ts + ";h1=" + PaddleNotifications.h1("old", ts, "{}") + ";h1="
        + PaddleNotifications.h1("new", ts, "{}");
    at(ts, "old").verify(both, bytes("{}"));
    at(ts, "new").verify(both, bytes("{}"));
    at(ts, "old", "new").verify("ts=" + ts + ";h1=" + PaddleNotifications.h1("new", ts, "{}"), bytes("{}"));
    at(ts, "old", "new").verify("ts=" + ts + ";h1=" + PaddleNotifications.h1("old", ts, "{}"), bytes("{}"));
    assertRejected(at(ts, "other", "another"), both, "{}", Reason.BAD_SIGNATURE);
  }

  @Test
  void missingOrUnboundedHeaderIsRefusedBeforeAnyHmac() {
    long ts = 1_795_000_000L;
    String h1 = PaddleNotifications.h1("s", ts, "{}");
    assertRejected(at(ts, "s"), null, "{}", Reason.MISSING_SIGNATURE);
    assertRejected(at(ts, "s"), " ", "{}", Reason.MISSING_SIGNATURE);
    assertRejected(at(ts, "s"), "ts=abc;h1=" + h1, "{}", Reason.MISSING_SIGNATURE);
    assertRejected(at(ts, "s"), "ts=" + ts + ";ts=" + ts + ";h1=" + h1, "{}", Reason.MALFORMED);
    assertRejected(at(ts, "s"), "ts=" + ts + (";h1=" + h1).repeat(PaddleSignature.MAX_SIGNATURES + 1), "{}",
        Reason.MALFORMED);
    assertRejected(at(ts, "s"), "ts=" + ts + ";h1=" + h1 + ";x=" + "y".repeat(PaddleSignature.MAX_HEADER_LENGTH), "{}",
        Reason.MALFORMED);
  }

  private static void assertRejected(PaddleSignature s, String header, String body, Reason reason) {
    assertThatThrownBy(() -> s.verify(header, bytes(body))).isInstanceOf(RejectedNotification.class)
        .extracting(e -> ((RejectedNotification) e).reason()).isEqualTo(reason);
  }
}
