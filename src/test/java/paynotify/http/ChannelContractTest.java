package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/**
 * The same guarantees on every channel besides Alipay (which has its own, older tests): each
 * channel only parses and verifies, and the one booking transaction does the rest.
 */
class ChannelContractTest extends ServiceTestBase {

  static Stream<ChannelFixture> channels() {
    return Stream.of(ChannelFixture.wechatV2(), ChannelFixture.wechatV3(), ChannelFixture.epay());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void firstDeliveryBooksAndTheSecondIsADuplicate(ChannelFixture ch) throws Exception {
    db.insertOrder("C1", 8888);
    assertThat(service.send(ch.payment("C1", "T-C1", 8888, 0))).matches(ch.success());
    assertThat(service.send(ch.payment("C1", "T-C1", 8888, 1))).matches(ch.success());

    assertThat(db.payments("T-C1")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents) FROM payments"))
        .isEqualTo(ch.platform() + " C1 8888");
    assertThat(db.orderStatus("C1")).isEqualTo("paid");
    assertThat(db.outcomes(ch.platform() + ":pay:T-C1")).isEqualTo("processed,duplicate");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void concurrentCopiesBookOnce(ChannelFixture ch) throws Exception {
    db.insertOrder("C2", 1999);
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      replies.add(service.sendAsync(ch.payment("C2", "T-C2", 1999, i)));
    }
    assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(ch.success()));
    assertThat(db.payments("T-C2")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(23);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void bookedBeforeARestartIsADuplicateAfterIt(ChannelFixture ch) throws Exception {
    db.insertOrder("C3", 500);
    try (TestService before = TestService.start()) {
      assertThat(before.send(ch.payment("C3", "T-C3", 500, 0))).matches(ch.success());
    }
    try (TestService after = TestService.start()) {
      assertThat(after.send(ch.payment("C3", "T-C3", 500, 1))).matches(ch.success());
    }
    assertThat(db.payments("T-C3")).isEqualTo(1);
    assertThat(db.outcomes(ch.platform() + ":pay:T-C3")).isEqualTo("processed,duplicate");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void signatureWithAnotherKeyIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.signedByAnotherKey("C4", "T-C4", 100));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void anotherMerchantIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.forAnotherMerchant("C4", "T-C4", 100));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void tamperedAmountIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.amountTampered("C4", "T-C4", 100));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void oversizedBodyIsRefused(ChannelFixture ch) throws Exception {
    Notification genuine = ch.payment("C5", "T-C5", 100, 0);
    Notification oversized = new Notification("POST", genuine.path(), genuine.headers(), new byte[70_000], null);
    Reply reply = service.send(oversized);
    assertThat(reply.status()).isEqualTo(413);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  private static void assertRefusedAndNothingBooked(ChannelFixture ch, Notification n) {
    db.insertOrder("C4", 100);
    assertThat(service.send(n)).matches(ch.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.orderStatus("C4")).isEqualTo("unpaid");
    service.awaitRejectedRecorded();
    assertThat(db.string("SELECT outcome FROM notify_log")).isEqualTo("rejected");
  }
}
