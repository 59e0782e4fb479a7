package paynotify.channel.xunhupay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.testsupport.XunhupayNotifications;

/** The hash against a notification 虎皮椒 signed, and the rules the platform's SDK spells out. */
class XunhupaySignatureTest {
  private static final XunhupaySignature SIGNATURE =
      new XunhupaySignature(XunhupayNotifications.APPID, XunhupayNotifications.APPSECRET);

  /** Sent by 虎皮椒 for its public test account, hash included. */
  private static Map<String, String> published() {
    return XunhupayNotifications.testAccountNotification();
  }

  @Test
  void theHashOfANotificationThePlatformSent() throws Exception {
    assertThat(SIGNATURE.sign(published())).isEqualTo("6ace7cbe58ed0a6f4aa94501c74f915b");
    assertThatCode(() -> SIGNATURE.verify(published())).doesNotThrowAnyException();
  }

  // generate_xh_hash skips is_null($v) || $v === '': an empty value only; "0" and " " are signed.
  @Test
  void onlyExactlyEmptyValuesAreLeftOut() {
    Map<String, String> p = published();
    String hash = SIGNATURE.sign(p);
    p.put("attach", "");
    assertThat(SIGNATURE.sign(p)).isEqualTo(hash);
    for (String signed : new String[] {"0", " "}) {
      p.put("attach", signed);
      assertThat(SIGNATURE.sign(p)).as("'%s'", signed).isNotEqualTo(hash);
    }
  }

  // 验证签名时必须支持增加的扩展字段: a field added later is signed like the others.
  @Test
  void aFieldThePlatformAddsLaterIsSigned() throws Exception {
    Map<String, String> p = published();
    p.put("payer", "buyer-1");
    assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.BAD_SIGNATURE));
    p.put("hash", SIGNATURE.sign(p));
    SIGNATURE.verify(p);
  }

  @Test
  void anotherAppidIsAnotherMerchant() {
    Map<String, String> p = published();
    XunhupaySignature ours = new XunhupaySignature("201906157182", XunhupayNotifications.APPSECRET);
    assertThatThrownBy(() -> ours.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.WRONG_MERCHANT));
  }

  @Test
  void aValueThatWouldSignAsAnotherFieldIsRefused() {
    Map<String, String> p = published();
    p.put("order_title", "一个月特价&trade_order_id=OTHER");
    p.put("hash", SIGNATURE.sign(p));
    assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED)).hasMessageContaining("ambiguous");
  }

  // The site's payment request is hashed with the same APPSECRET: with OD and an open_order_id added, it must not
  // pass for a notification.
  @Test
  void aFieldOfTheSitesRequestIsRefused() {
    Map<String, String> p = published();
    p.put("notify_url", "https://shop.example/notify/xunhupay");
    p.put("hash", SIGNATURE.sign(p));
    assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED)).hasMessageContaining("notify_url");
  }

  @Test
  void noHashIsAMissingSignature() {
    Map<String, String> p = published();
    p.remove("hash");
    assertThatThrownBy(() -> SIGNATURE.verify(p)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_SIGNATURE));
  }
}
