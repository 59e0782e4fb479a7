package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.cli.ExitCode;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestService;

/**
 * `repair book --apply` with Alipay's query configured: a bill row is booked only when Alipay confirms the
 * trade, paid, for that order and amount (the review's S10: a bill file is only as good as who handed it over).
 */
class RepairBookConfirmationTest extends DatabaseTestBase {
  // A payment of the Alipay sample bill whose notification was lost (answer key: missing_local, 349.11).
  private static final String TRADE = "2026031422001477480730061433";
  private static final String ORDER = "PN2026031439096925";

  AlipayStandIn alipay;
  String yaml;

  @BeforeEach
  void start() {
    SampleBills.loadLocalState();
    alipay = AlipayStandIn.start();
    yaml = "alipay: " + alipay.configure(TestService.configuration(new JsonObject())).getJsonObject("alipay").encode() + "\n";
  }

  @AfterEach
  void stop() {
    alipay.close();
  }

  private Cli.Result repair() {
    return Cli.runConfigured(yaml, "repair", "book", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(),
        "--trade-no", TRADE, "--apply");
  }

  @Test
  void aRowAlipayConfirmsIsBooked() {
    alipay.paid(ORDER, TRADE, "349.11");
    Cli.Result r = repair();
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("booked 1 payment of alipay trade " + TRADE);
    assertThat(db.payments(TRADE)).isEqualTo(1);
    assertThat(alipay.queries(ORDER)).isEqualTo(1);
  }

  @Test
  void aRowAlipayDoesNotConfirmIsRefused() {
    alipay.waiting(ORDER);
    Cli.Result waiting = repair();
    assertThat(waiting.exit()).isEqualTo(ExitCode.FOUND);
    assertThat(waiting.err()).contains("does not confirm").contains("WAIT_BUYER_PAY");

    alipay.paid(ORDER, TRADE, "3.49"); // another amount than the bill's
    Cli.Result amount = repair();
    assertThat(amount.exit()).isEqualTo(ExitCode.FOUND);
    assertThat(amount.err()).contains("does not confirm").contains("3.49");

    alipay.paid(ORDER, TRADE, "349.11");
    alipay.mode(Mode.BAD_SIGNATURE);
    Cli.Result untrusted = repair();
    assertThat(untrusted.exit()).isEqualTo(ExitCode.FOUND);
    assertThat(untrusted.err()).contains("could not confirm");

    assertThat(db.payments(TRADE)).isZero();
    assertThat(db.orderStatus(ORDER)).isEqualTo("unpaid");
  }
}
