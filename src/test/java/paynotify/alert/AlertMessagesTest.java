package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.reconcile.Finding;

/**
 * Every kind of anomaly the owner can be told of (the booking's and the reconcile findings') has its name and what
 * to do in Chinese, and in English the status page's own words; an order number is shown only when it looks like one.
 */
class AlertMessagesTest {
  static Stream<String> kinds() {
    return Stream.concat(Arrays.stream(AnomalyKind.values()).map(AnomalyKind::code),
        Arrays.stream(Finding.Kind.values()).map(Finding.Kind::code));
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void eachKindSaysWhatItIsAndWhatToDoInChinese(String kind) {
    Alert zh = new AlertMessages(new AlertTexts("zh")).anomaly(kind, "alipay", "PN1", "T1", 2990L, "detail");
    assertThat(zh.title()).startsWith("支付异常：").doesNotContain(kind).endsWith(" 订单 PN1 ¥29.90");
    assertThat(zh.text()).contains("\n处理：").doesNotContain("what to do");
    assertThat(zh.text().substring(zh.text().indexOf("处理：")).codePoints().anyMatch(c -> c > 0x4e00)).isTrue();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void inEnglishItIsTheStatusPagesText(String kind) {
    Alert en = new AlertMessages(new AlertTexts("en")).anomaly(kind, "alipay", null, null, null, "detail");
    AnomalyKind known = AnomalyKind.of(kind);
    String action = known != null ? known.action() : Finding.Kind.valueOf(kind.toUpperCase()).hint;
    assertThat(en.title()).isEqualTo("paynotify: " + kind);
    assertThat(en.text()).endsWith("\nwhat to do: " + action);
  }

  @Test
  void anOrderNumberIsShownWhenItLooksLikeOneElseAsAHashInTitleAndDetailAlike() {
    AlertMessages en = new AlertMessages(new AlertTexts("en"));
    assertThat(en.anomaly("unknown_order", "paypal", "PN_1a:b#c|d-e", "T1", 100L, "x").title())
        .isEqualTo("paynotify: unknown_order order PN_1a:b#c|d-e ¥1.00");

    // a dot makes a domain, which Telegram and mail apps turn into a link
    for (String odd : new String[] {"A".repeat(65), "PN 1", "PN<1>", "订单1", "wxpay-fix.cn"}) {
      Alert a = en.anomaly("unknown_order", "paypal", odd, "T1", 100L, "paid 1.00 for unknown order " + odd);
      assertThat(a.title()).matches("paynotify: unknown_order order hash [0-9a-f]{8} \\(see /status\\) ¥1\\.00");
      assertThat(a.text()).doesNotContain(odd).contains("for unknown order hash ");
    }
  }
}
