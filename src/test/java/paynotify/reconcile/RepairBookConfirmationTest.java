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
import paynotify.testsupport.WechatV2StandIn;

/**
 * `repair book --apply` with Alipay's query configured: a bill row is booked only when Alipay confirms the
 * trade, paid, for that order and amount (the review's S10: a bill file is only as good as who handed it over).
 * WeChat Pay v2 is asked with the API key its channel has, whatever recovery.enabled says; a row no client can
 * confirm is booked only when told --unconfirmed (N8); a trade the platform says was refunded since is an anomaly
 * (M1).
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

  // A WeChat payment of the sample bill whose notification was lost (answer key: missing_local, 153.90).
  private static final String WECHAT_TRADE = "4200002527202603145755199475";
  private static final String WECHAT_ORDER = "PN2026031444322710";

  /** repair book of the WeChat sample's lost payment, with WeChat Pay v2 on (recovery off) and pointed at {@code wechat}. */
  private static Cli.Result repairWechat(WechatV2StandIn wechat) {
    String v2 = wechat.configure(TestService.configuration(new JsonObject())).getJsonObject("wechat_v2").encode();
    return Cli.runConfigured("wechat_v2: " + v2 + "\n", "repair", "book", "--channel", "wechat", "--bill",
        SampleBills.WECHAT.toString(), "--trade-no", WECHAT_TRADE, "--apply");
  }

  @Test
  void wechatV2IsAskedToConfirmWhateverRecoveryEnabledSays() {
    try (WechatV2StandIn wechat = WechatV2StandIn.start()) {
      wechat.paid(WECHAT_ORDER, WECHAT_TRADE, "15390");
      Cli.Result r = repairWechat(wechat);
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(wechat.queries(WECHAT_ORDER)).isEqualTo(1);
      assertThat(db.orderStatus(WECHAT_ORDER)).isEqualTo("paid");
    }
  }

  @Test
  void aRowWechatSaysWasRefundedSinceIsNotBookedButAnAnomaly() {
    try (WechatV2StandIn wechat = WechatV2StandIn.start()) {
      wechat.paid(WECHAT_ORDER, WECHAT_TRADE, "15390");
      wechat.refunded(WECHAT_ORDER);
      Cli.Result r = repairWechat(wechat);
      assertThat(r.exit()).isEqualTo(ExitCode.FOUND);
      assertThat(r.err()).contains("paid, then refunded at the platform");
      assertThat(db.payments(WECHAT_TRADE)).isZero();
      assertThat(db.orderStatus(WECHAT_ORDER)).isEqualTo("unpaid");
      assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'paid_then_refunded' AND trade_no = ?",
          WECHAT_TRADE)).isEqualTo(1);
    }
  }

  @Test
  void aRowNoClientCanConfirmIsBookedOnlyWhenToldUnconfirmed() {
    // the tools' bare configuration: no platform can be asked
    Cli.Result refused = Cli.run("repair", "book", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(),
        "--trade-no", TRADE, "--apply");
    assertThat(refused.exit()).isEqualTo(ExitCode.FOUND);
    assertThat(refused.err()).contains("no platform client can confirm").contains("--unconfirmed");
    assertThat(db.payments(TRADE)).isZero();

    Cli.Result booked = Cli.run("repair", "book", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(),
        "--trade-no", TRADE, "--apply", "--unconfirmed");
    assertThat(booked.exit()).as(booked.err()).isZero();
    assertThat(db.orderStatus(ORDER)).isEqualTo("paid");
  }
}
