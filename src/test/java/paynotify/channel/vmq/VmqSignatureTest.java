package paynotify.channel.vmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification;
import paynotify.channel.RejectedNotification.Reason;

/** The plain concatenation, and the grammar that keeps its movable boundaries few. */
class VmqSignatureTest {
  private static final String KEY = "vmq_test_key_2026";
  /** dujiaoka's way: the order number in param. */
  private static final VmqSignature SIGNATURE = new VmqSignature(KEY, "param", null);

  private static Map<String, String> push(String price, String reallyPrice, String sign) {
    Map<String, String> p = new HashMap<>(Map.of("payId", "P1001", "param", "ORD-1", "type", "1", "price", price,
        "reallyPrice", reallyPrice));
    p.put("sign", sign);
    return p;
  }

  // printf '%s' 'P1001ORD-111010.01vmq_test_key_2026' | md5sum
  @Test
  void theSignIsTheConcatenationOfTheValuesAsSent() throws Exception {
    assertThat(SIGNATURE.sign("P1001", "ORD-1", "1", "10", "10.01")).isEqualTo("83c300be0c1cc968632ff144c68ccee3");
    SIGNATURE.verify(push("10", "10.01", "83c300be0c1cc968632ff144c68ccee3"));
    // the Java server's 10.0 is another text: signed as sent, never reformatted
    assertThatThrownBy(() -> SIGNATURE.verify(push("10.0", "10.01", "83c300be0c1cc968632ff144c68ccee3")))
        .isInstanceOfSatisfying(RejectedNotification.class, e -> assertThat(e.reason()).isEqualTo(Reason.BAD_SIGNATURE));
    SIGNATURE.verify(push("10.0", "10.01", SIGNATURE.sign("P1001", "ORD-1", "1", "10.0", "10.01")));
  }

  @Test
  void typeAndPricesOutsideTheirGrammarAreRefusedBeforeTheSign() {
    Map<String, String> type3 = push("10", "10.01", SIGNATURE.sign("P1001", "ORD-1", "3", "10", "10.01"));
    type3.put("type", "3");
    Map<String, String> exponent = push("1.0E7", "10.01", SIGNATURE.sign("P1001", "ORD-1", "1", "1.0E7", "10.01"));
    Map<String, String> negative = push("10", "-0.01", SIGNATURE.sign("P1001", "ORD-1", "1", "10", "-0.01"));
    for (Map<String, String> p : new Map[] {type3, exponent, negative}) {
      assertThatThrownBy(() -> SIGNATURE.verify(p)).as(p.toString()).isInstanceOfSatisfying(RejectedNotification.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
    }
  }

  @Test
  void zeroPricesAreRefused() {
    for (String[] prices : new String[][] {{"0", "10"}, {"10", "0.00"}}) {
      Map<String, String> p = push(prices[0], prices[1], SIGNATURE.sign("P1001", "ORD-1", "1", prices[0], prices[1]));
      assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
    }
  }

  // createOrder's sign (payId ORD7, param qq21, type 1, price 11) is the notify sign of (ORD7, qq, 2, 11, 11):
  // with the order in payId, a param ending in a digit is refused, so a site's own payments fail until it sends
  // none that could give its digits to type and price.
  @Test
  void withTheOrderInPayIdAParamEndingInADigitIsRefused() throws Exception {
    VmqSignature payIdMode = new VmqSignature(KEY, "payId", null);
    Map<String, String> p = new HashMap<>(Map.of("payId", "ORD7", "param", "qq21", "type", "1", "price", "11",
        "reallyPrice", "11.01"));
    p.put("sign", payIdMode.sign("ORD7", "qq21", "1", "11", "11.01"));
    assertThatThrownBy(() -> payIdMode.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED)).hasMessageContaining("ends in a digit");
    p.put("param", "qq21x");
    p.put("sign", payIdMode.sign("ORD7", "qq21x", "1", "11", "11.01"));
    payIdMode.verify(p);
  }

  // A sign of payId 12 (param empty) is the sign of payId 1 with param 2: one length for every order number.
  @Test
  void anOrderNumberOutsideThePatternIsRefused() throws Exception {
    VmqSignature fixedLength = new VmqSignature(KEY, "payId", Pattern.compile("[0-9]{2}"));
    Map<String, String> genuine = new HashMap<>(Map.of("payId", "12", "param", "", "type", "1", "price", "10",
        "reallyPrice", "10"));
    genuine.put("sign", fixedLength.sign("12", "", "1", "10", "10"));
    fixedLength.verify(genuine);
    Map<String, String> moved = new HashMap<>(genuine);
    moved.put("payId", "1");
    moved.put("param", "2");
    assertThatThrownBy(() -> fixedLength.verify(moved)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED)).hasMessageContaining("vmq.order_pattern");
  }

  @Test
  void noSignIsAMissingSignature() {
    Map<String, String> p = push("10", "10.01", "");
    assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_SIGNATURE));
  }
}
