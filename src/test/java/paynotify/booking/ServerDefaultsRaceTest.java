package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServerSetting;
import paynotify.testsupport.ServiceTestBase;

/**
 * The races that depend on how the site's server is configured: READ COMMITTED by default (several
 * managed MySQL services), {@code innodb_snapshot_isolation=ON} (MariaDB 11.6+, Debian 13's 11.8).
 * The service pins its own sessions, so every server ends in the same state, with no failure reply.
 */
class ServerDefaultsRaceTest extends ServiceTestBase {
  private static final List<ChannelFixture> CHANNELS = ChannelFixture.sendsRefunds();

  /** A server configuration, applied before the service (and so its sessions) starts. */
  record Server(String name, Supplier<ServerSetting> apply) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Server> servers() {
    return Stream.of(
        new Server("server default", () -> null),
        new Server("READ-COMMITTED", () -> ServerSetting.isolation(db, "READ-COMMITTED")),
        new Server("innodb_snapshot_isolation=ON", () -> {
          Assumptions.assumeTrue(ServerSetting.exists(db, "innodb_snapshot_isolation"),
              "this server has no innodb_snapshot_isolation");
          return ServerSetting.set(db, "innodb_snapshot_isolation", "ON");
        }));
  }

  /** 300 full refunds, each racing its own payment in a seeded order and spacing, 16 races at a time. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("servers")
  void aRefundRacingItsPaymentIsAlwaysSettled(Server server) throws Exception {
    Random random = new Random(20261130);
    int races = 300;
    for (int i = 0; i < races; i++) {
      db.insertOrder("RR" + i, 1000 + i);
    }
    try (ServerSetting setting = server.apply().get()) {
      restartService();
      List<CompletableFuture<Reply>> replies = new ArrayList<>();
      List<ChannelFixture> sentBy = new ArrayList<>();
      for (int i = 0; i < races; i++) {
        ChannelFixture ch = CHANNELS.get(i % CHANNELS.size());
        long cents = 1000 + i;
        Notification payment = ch.payment("RR" + i, "T-RR" + i, cents, 0);
        Notification refund = ch.refund("RR" + i, "T-RR" + i, cents, "RF-RR" + i, cents, cents, 0);
        boolean refundFirst = random.nextBoolean();
        replies.add(service.sendAsync(refundFirst ? refund : payment));
        if (random.nextInt(3) == 0) {
          Thread.sleep(random.nextInt(3));
        }
        replies.add(service.sendAsync(refundFirst ? payment : refund));
        sentBy.add(ch);
        sentBy.add(ch);
        if (i % 16 == 15) {
          CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).join();
        }
      }
      for (int i = 0; i < replies.size(); i++) {
        assertThat(replies.get(i).join()).as("reply %d", i).matches(sentBy.get(i).success());
      }
    } finally {
      restartService();
    }
    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE status = 'pending'")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE status = 'settled'")).isEqualTo(races);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE status = 'refunded'")).isEqualTo(races);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** 200 payments, each delivered 8 times at once: booked once each, every copy answered success. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("servers")
  void aDuplicateStormIsAnsweredSuccessAndBookedOnce(Server server) throws Exception {
    int payments = 200;
    int copies = 8;
    ChannelFixture ch = ChannelFixture.alipay();
    for (int i = 0; i < payments; i++) {
      db.insertOrder("DS" + i, 500 + i);
    }
    try (ServerSetting setting = server.apply().get()) {
      restartService();
      List<CompletableFuture<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < payments; i++) {
        for (int c = 0; c < copies; c++) {
          replies.add(service.sendAsync(ch.payment("DS" + i, "T-DS" + i, 500 + i, c)));
        }
        if (i % 8 == 7) {
          CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).join();
        }
      }
      assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(ch.success()));
    } finally {
      restartService();
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isEqualTo(payments);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE status = 'paid'")).isEqualTo(payments);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'"))
        .isEqualTo((long) payments * (copies - 1));
  }
}
