package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.EpusdtNotifications.Num;

/**
 * The test signers of xunhupay, epusdt, vmq, TokenPay, Lemon Squeezy, Creem and Standard Webhooks against the
 * platforms' and the spec's own examples: the code under test is tested with these signers, so they must sign as
 * the platforms do, not as that code does.
 */
class NotificationSignersTest {

  // The platform's own hash, of a Chinese title and a JSON value as received.
  @Test
  void xunhupayHashesThePublicTestAccountsNotification() {
    assertThat(XunhupayNotifications.hash(XunhupayNotifications.testAccountNotification(),
        "160130736b1ac0d54ed7abe51e44840b")).isEqualTo("6ace7cbe58ed0a6f4aa94501c74f915b");
  }

  // The example of the API docs (assimon wiki/API.md, also BEpusdt docs/api/api.md): a number and strings.
  @Test
  void epusdtSignsTheDocsExample() {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("order_id", "20220201030210321");
    f.put("amount", new Num("42"));
    f.put("notify_url", "http://example.com/notify");
    f.put("redirect_url", "http://example.com/redirect");

    assertThat(EpusdtNotifications.signature(f, "epusdt_password_xasddawqe"))
        .isEqualTo("1cd4b52df5587cfb1968b0c0c6e156cd");
  }

  // GMWalletApp's wiki example, whose docs say 100.00 is signed as 100.
  @Test
  void epusdtSignsGmwalletsExampleWithTheNumberAsGoPrintsIt() {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("pid", "1000");
    f.put("order_id", "ORD202605230001");
    f.put("currency", "cny");
    f.put("token", "usdt");
    f.put("network", "tron");
    f.put("amount", new Num("100.00"));
    f.put("name", "VIP");
    f.put("notify_url", "https://merchant.example/notify");
    f.put("redirect_url", "https://merchant.example/return");

    assertThat(EpusdtNotifications.signature(f, "epusdt_secret_key")).isEqualTo("476412c422f4dd75c3d533f5c47a9cac");
  }

  // An assimon callback: "" and null are left out. Hand-computed: printf '%s' 'actual_amount=4.12&amount=28.88
  // &order_id=ORD20250120001&status=2&token=TNEns8t9jbWENbStkQdVQtHMGpbsYsQjZK&trade_id=202501201737353600123456
  // epusdt_password_xasddawqe' | md5sum (one line, no spaces).
  @Test
  void epusdtLeavesOutEmptyAndNullFields() {
    Map<String, Object> f = EpusdtNotifications.assimon("ORD20250120001", "202501201737353600123456", "28.88");
    f.put("remark", null);

    assertThat(EpusdtNotifications.signature(f, "epusdt_password_xasddawqe"))
        .isEqualTo("8d68243da1b33c0bb648fbad74e56dad");
  }

  // api.html's createOrder example values, paid 0.11. Hand-computed:
  // printf '%s' '1547129707139vone66620.10.11vmq_test_key_0123456789abcdef' | md5sum
  @Test
  void vmqSignsTheValuesConcatenated() {
    Map<String, String> p = VmqNotifications.payment("1547129707139", "vone666", "0.1", "0.11");
    p.put("type", "2");

    assertThat(VmqNotifications.sign(p, "vmq_test_key_0123456789abcdef")).isEqualTo("c53ae9d08eb8cd2036830bd2764628c4");
  }

  // Wiki/docs.md §2 of LightCountry/TokenPay: its example notification and key 666 give e5eaa888...; its string to
  // sign ends "...&Status=1&ToAddress=TKGTx4pCKiKQbk8evXHTborfZn754TGViP666".
  @Test
  void tokenpaySignsTheWikisExample() {
    assertThat(TokenPayNotifications.signature(TokenPayNotifications.wikiExample(), TokenPayNotifications.WIKI_KEY))
        .isEqualTo(TokenPayNotifications.WIKI_SIGNATURE);
  }

  // Lemon Squeezy publishes no signature vector (its docs give the algorithm only; its JS SDK has no verifier):
  // LemonSqueezyNotifications' vector was computed once with openssl, outside this code.
  @Test
  void lemonSqueezySignsAsOpensslHmacsTheRawBody() {
    assertThat(LemonSqueezyNotifications.signature(LemonSqueezyNotifications.VECTOR_BODY.getBytes(
        StandardCharsets.UTF_8), LemonSqueezyNotifications.VECTOR_SECRET))
        .isEqualTo(LemonSqueezyNotifications.VECTOR_SIGNATURE);
  }

  // The vector of the Standard Webhooks libraries' tests (libraries/php/tests/WebhookTest.php).
  @Test
  void standardWebhooksSignsTheLibrariesVector() {
    assertThat(StandardWebhooks.v1("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
        "{\"test\": 2432232314}")).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  // docs/forwarding.md's mapping of a hex secret: printf 'whsec_%s\n' "$(printf %s "$SECRET" | base64 -w0)"
  @Test
  void aSecretNotWrittenWhsecIsGivenToLibrariesAsItsTextInBase64() {
    assertThat(StandardWebhooks.whsec("9c0e2b4d6f8a1c3e5a7b9d0f2e4c6a8b"))
        .isEqualTo("whsec_OWMwZTJiNGQ2ZjhhMWMzZTVhN2I5ZDBmMmU0YzZhOGI=");
    assertThat(StandardWebhooks.whsec("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).isEqualTo("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  }

  // Creem's SDK test fixture (creem_io __tests__/webhooks.test.ts: TEST_SECRET, JSON.stringify(makeEvent(
  // "checkout.completed", "checkout"))), its signature computed with openssl dgst -sha256 -hmac.
  @Test
  void creemSignsTheSdkTestsEvent() {
    assertThat(CreemNotifications.signature(CreemNotifications.SDK_BODY.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        CreemNotifications.SDK_SECRET)).isEqualTo(CreemNotifications.SDK_SIGNATURE);
  }
}
