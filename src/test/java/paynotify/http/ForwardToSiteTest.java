package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig;
import paynotify.setup.Schema;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PhpReceiver;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * A dujiaoka site whose fulfilment moved from "inside notify.php" to "on payment.succeeded": the
 * real service books the payment in the site's own orders table, its relay forwards the event to
 * the PHP receiver of docs/forwarding.md, which delivers the order (2 -> 4) once. The site down for a while
 * loses nothing: the event waits, and is delivered when it is back.
 */
class ForwardToSiteTest extends DatabaseTestBase {
  private static final String SECRET = "9c0e2b4d6f8a1c3e5a7b9d0f2e4c6a8b";
  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();

  private TestDatabase site;
  private PhpReceiver receiver;

  @AfterEach
  void dropTheSite() {
    if (receiver != null) {
      receiver.close();
    }
    if (site != null) {
      site.drop();
    }
  }

  @Test
  void aPaymentIsDeliveredByTheSiteOnceAndItsDowntimeLosesNothing() throws Exception {
    assumeTrue(PhpReceiver.available(), "php with pdo_mysql is not installed: the receiver of docs/forwarding.md is not run");
    site = db.scratch(TestDatabase.NAME + "_forward_site");
    SiteTable orders = SiteTable.dujiaoka(site).as(site, "orders");
    orders.create(); // the site's own table first: paynotify's migrations leave it alone
    Schema.migrate(site.settings(), AppConfig.from(orders.overrides(), "test", Map.of()).orders(), Set.of(), "test");
    site.update(PhpReceiver.siteTable());
    receiver = PhpReceiver.start(site.settings(), SECRET);
    orders.insertOrder("D1", 1000);
    orders.insertOrder("D2", 2500);

    try (TestService service = TestService.start(site.settings(), orders.overrides()
        .put("forward", new JsonObject().put("url", receiver.url()).put("secret", SECRET).put("timeout_ms", 2000)
            .put("retry_schedule_seconds", new JsonArray().add(1).add(2).add(4).add(8).add(16))))) {
      assertThat(service.send(ALIPAY.payment("D1", "T-D1", 1000, 0))).matches(ALIPAY.success());
      await(() -> "4".equals(orders.status("D1")), "the site delivered D1: " + receiver.log());
      assertThat(site.count("SELECT COUNT(*) FROM paynotify_events")).isEqualTo(1);
      await(() -> site.count("SELECT COUNT(*) FROM forward_events WHERE state = 'delivered'") == 1,
          "the event recorded delivered");
      assertThat(site.string("SELECT event_id FROM paynotify_events"))
          .isEqualTo(site.string("SELECT event_id FROM forward_events WHERE state = 'delivered'"));

      // The site goes down; the platform's notification is still booked and acknowledged.
      receiver.close();
      assertThat(service.send(ALIPAY.payment("D2", "T-D2", 2500, 0))).matches(ALIPAY.success());
      assertThat(orders.status("D2")).isEqualTo("2");
      await(() -> site.count("SELECT attempts FROM forward_events WHERE order_no = 'D2'") >= 1,
          "a first attempt at the site that is down");
      assertThat(site.string("SELECT state FROM forward_events WHERE order_no = 'D2'")).isEqualTo("pending");

      // Back up: the event waiting in the outbox is delivered, once.
      receiver = PhpReceiver.start(site.settings(), SECRET, receiver.port());
      await(() -> "4".equals(orders.status("D2")), "the site delivered D2 once back: " + receiver.log());
      assertThat(site.count("SELECT COUNT(*) FROM paynotify_events")).isEqualTo(2);
      // The site commits before it answers, and paynotify records the 200 after it: wait for that.
      await(() -> site.count("SELECT COUNT(*) FROM forward_events WHERE state = 'delivered'") == 2,
          "both events recorded delivered");
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as(what).isBefore(deadline);
      Thread.sleep(100);
    }
  }
}
