package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.retry;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.TestService;

/** 3. Every guarantee lives in the database: a restart or a second instance changes nothing. */
class RestartAndInstancesTest extends DatabaseTestBase {
  @Test
  void duplicateAfterRestartIsStillADuplicate() {
    db.insertOrder("R1", 4200);
    Map<String, String> params = payment("R1", "TR1", "42.00");
    try (TestService before = TestService.start()) {
      assertThat(before.postAlipay(signedBody(params))).isEqualTo(new Reply(200, "success"));
    }
    try (TestService after = TestService.start()) {
      assertThat(after.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.payments("TR1")).isEqualTo(1);
    assertThat(db.outcomes("alipay:pay:TR1")).isEqualTo("processed,duplicate");
  }

  @Test
  void twoInstancesOnOneDatabaseBookOnce() {
    db.insertOrder("R2", 1000);
    Map<String, String> params = payment("R2", "TR2", "10.00");
    try (TestService a = TestService.start(); TestService b = TestService.start()) {
      assertThat(a.port()).isNotEqualTo(b.port());
      List<CompletableFuture<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        TestService target = i % 2 == 0 ? a : b;
        replies.add(target.postAlipayAsync(signedBody(retry(params, i))));
      }
      assertThat(replies).allSatisfy(r -> assertThat(r.join()).isEqualTo(new Reply(200, "success")));
    }
    assertThat(db.payments("TR2")).isEqualTo(1);
    assertThat(db.orderStatus("R2")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(23);
  }
}
