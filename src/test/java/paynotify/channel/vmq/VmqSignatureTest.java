package paynotify.channel.vmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;

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

  // Issue 40 (V04): vmqphp's own documented callback has param vone666. A param ending in a digit is no reason to
  // refuse a genuine payment: which other readings its sign covers is VmqReadings' to say.
  @Test
  void withTheOrderInPayIdAParamEndingInADigitVerifies() throws Exception {
    VmqSignature payIdMode = new VmqSignature(KEY, "payId", null);
    Map<String, String> p = new HashMap<>(Map.of("payId", "1547130349673", "param", "vone666", "type", "2",
        "price", "0.1", "reallyPrice", "0.1"));
    p.put("sign", payIdMode.sign("1547130349673", "vone666", "2", "0.1", "0.1"));
    payIdMode.verify(p);
  }

  // Issue 40, point 12: absent, the type is refused as malformed (Set.of cannot be asked about null).
  @Test
  void anAbsentTypeIsMalformed() {
    Map<String, String> p = push("10", "10.01", SIGNATURE.sign("P1001", "ORD-1", "", "10", "10.01"));
    p.remove("type");
    assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
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
