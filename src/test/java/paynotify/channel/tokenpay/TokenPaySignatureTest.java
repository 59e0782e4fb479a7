package paynotify.channel.tokenpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.testsupport.Notification;
import paynotify.testsupport.TokenPayNotifications;

/** The signature against TokenPay's published example, the test tree's signer and both serialisers' escaping. */
class TokenPaySignatureTest {
  /** Wiki/docs.md §2 ①, with the Signature its ③ computes for key 666. */
  private static final String WIKI_BODY = "{\"ActualAmount\":\"15\",\"Amount\":\"34.91\",\"BaseCurrency\":\"CNY\","
      + "\"BlockChainName\":\"TRON\",\"BlockTransactionId\":\"375859c36dc5f5d227b10912b5ec70d36dd34446028064956cb60cdbb"
      + "74432f5\",\"Currency\":\"TRX\",\"CurrencyName\":\"TRX\","
      + "\"FromAddress\":\"TYYjzt6AWhe9hAg9DrhiYXEWKDksyohgQa\","
      + "\"Id\":\"63234df7-55bf-93fc-0010-67be493c0c27\",\"OutOrderId\":\"E6COE6FGZMO5AXSK\",\"PayTime\":\"2022-09-15 "
      + "16:08:39\",\"Status\":1,\"ToAddress\":\"TKGTx4pCKiKQbk8evXHTborfZn754TGViP\","
      + "\"Signature\":\"e5eaa888cd9e80b5c09a0698981757c8\"}";
  private static final TokenPaySignature WIKI = new TokenPaySignature(TokenPayNotifications.WIKI_KEY);
  private static final TokenPaySignature OURS = new TokenPaySignature(TokenPayNotifications.API_TOKEN);

  private static Map<String, String> read(String json) throws RejectedNotification {
    return TokenPaySignature.read(json.getBytes(StandardCharsets.UTF_8));
  }

  private static void badSignature(RejectedNotification e) {
    assertThat(e.reason()).isEqualTo(Reason.BAD_SIGNATURE);
  }

  private static Map<String, String> read(Notification n) throws RejectedNotification {
    return TokenPaySignature.read(n.body());
  }

  @Test
  void theWikisExampleVerifies() throws Exception {
    Map<String, String> values = read(WIKI_BODY);
    WIKI.verify(values);
    assertThat(WIKI.sign(values)).isEqualTo("e5eaa888cd9e80b5c09a0698981757c8");
    assertThat(values.get("Status")).as("a number, signed as its literal").isEqualTo("1");
  }

  @Test
  void theTestSignersWikiExampleVerifies() throws Exception {
    Map<String, Object> signed = TokenPayNotifications.signed(TokenPayNotifications.wikiExample(),
        TokenPayNotifications.WIKI_KEY);
    assertThat(signed.get("Signature")).isEqualTo(TokenPayNotifications.WIKI_SIGNATURE);
    WIKI.verify(read(TokenPayNotifications.post(signed)));
  }

  @Test
  void theWikisExampleWithAnotherKeyOrAValueChangedIsRefused() {
    assertThatThrownBy(() -> OURS.verify(read(WIKI_BODY)))
        .isInstanceOfSatisfying(RejectedNotification.class, TokenPaySignatureTest::badSignature);
    for (String tampered : new String[] {WIKI_BODY.replace("\"15\"", "\"150\""), WIKI_BODY.replace("\"Status\":1",
        "\"Status\":2"), WIKI_BODY.replace("E6COE6FGZMO5AXSK", "E6COE6FGZMO5AXSL")}) {
      assertThatThrownBy(() -> WIKI.verify(read(tampered))).isInstanceOfSatisfying(RejectedNotification.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.BAD_SIGNATURE));
    }
  }

  @Test
  void aMissingOrEmptySignatureIsRefusedAsMissing() {
    for (String body : new String[] {WIKI_BODY.replace(",\"Signature\":\"e5eaa888cd9e80b5c09a0698981757c8\"", ""),
        WIKI_BODY.replace("e5eaa888cd9e80b5c09a0698981757c8", ""), WIKI_BODY.replace(
            "\"e5eaa888cd9e80b5c09a0698981757c8\"", "null")}) {
      assertThatThrownBy(() -> WIKI.verify(read(body))).isInstanceOfSatisfying(RejectedNotification.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_SIGNATURE));
    }
  }

  // Newtonsoft writes & and non-ASCII as they are, System.Text.Json as backslash-u escapes: TokenPay signed the C#
  // strings, so both bodies carry the one signature of the decoded values.
  @Test
  void bothSerialisersEscapingVerifiesTheSame() throws Exception {
    Map<String, Object> f = TokenPayNotifications.paid("P&1", "6f1a2b3c-0000-4000-8000-00000000e5c1", 1999);
    f.put("OrderUserKey", "a+b<c>'d\"e&f@例子.公司");
    f.put("PassThroughInfo", "订单 № 1, café & crème");
    Map<String, Object> signed = TokenPayNotifications.signed(f, TokenPayNotifications.API_TOKEN);
    Notification raw = TokenPayNotifications.post(signed);
    Notification escaped = TokenPayNotifications.postEscaped(signed);
    assertThat(new String(escaped.body(), StandardCharsets.UTF_8)).contains("\\u0026", "\\u4F8B").doesNotContain("&",
        "例");
    assertThat(new String(raw.body(), StandardCharsets.UTF_8)).contains("P&1", "订单 № 1");

    OURS.verify(read(raw));
    OURS.verify(read(escaped));
    assertThat(read(raw)).isEqualTo(read(escaped));
  }

  // Fields are added over versions (CurrencyName, PayAmount, IsDynamicAmount): a field we do not know is signed too.
  @Test
  void aFieldOfALaterVersionIsSignedOver() throws Exception {
    Map<String, Object> f = TokenPayNotifications.paid("P2", "6f1a2b3c-0000-4000-8000-00000000e5c2", 1999);
    f.put("NewField", "later");
    Map<String, Object> signed = TokenPayNotifications.signed(f, TokenPayNotifications.API_TOKEN);
    OURS.verify(read(TokenPayNotifications.post(signed)));

    signed.remove("NewField");
    assertThatThrownBy(() -> OURS.verify(read(TokenPayNotifications.post(signed))))
        .isInstanceOfSatisfying(RejectedNotification.class, TokenPaySignatureTest::badSignature);
  }

  // IsDynamicAmount 0 is a value (PHP's empty() would drop it); null and "" are not sent, so not signed.
  @Test
  void zeroIsSignedNullAndEmptyAreNot() throws Exception {
    Map<String, Object> f = TokenPayNotifications.paid("P3", "6f1a2b3c-0000-4000-8000-00000000e5c3", 1999);
    Map<String, Object> signed = TokenPayNotifications.signed(f, TokenPayNotifications.API_TOKEN);
    assertThat(read(TokenPayNotifications.post(signed))).containsEntry("IsDynamicAmount", "0");
    signed.remove("IsDynamicAmount");
    assertThatThrownBy(() -> OURS.verify(read(TokenPayNotifications.post(signed))))
        .isInstanceOfSatisfying(RejectedNotification.class, TokenPaySignatureTest::badSignature);

    signed.put("IsDynamicAmount", 0);
    signed.put("PassThroughInfo", null);
    signed.put("OrderUserKey", "");
    assertThatThrownBy(() -> OURS.verify(read(TokenPayNotifications.post(signed))))
        .as("OrderUserKey was signed").isInstanceOf(RejectedNotification.class);
    signed.remove("OrderUserKey");
    f.remove("OrderUserKey");
    signed.put("Signature", TokenPayNotifications.signature(f, TokenPayNotifications.API_TOKEN));
    OURS.verify(read(TokenPayNotifications.post(signed)));
    signed.put("OrderUserKey", "");
    OURS.verify(read(TokenPayNotifications.post(signed)));
  }

  // Vert.x's JsonObject keeps the last of a name given twice: the one signed and the one read could differ.
  @Test
  void whatTokenPayCannotHaveSentIsRefusedBeforeHashing() {
    for (String body : new String[] {"{\"a\":{\"b\":1}}", "{\"a\":[1]}", "{\"a\":true}", "[1]", "\"x\"", "1", "",
        "{\"Status\":0,\"Status\":1}", "{\"a\":1} {}", "not json", "{\"a\":1" + "2".repeat(40) + "}"}) {
      assertThatThrownBy(() -> read(body)).as(body).isInstanceOfSatisfying(RejectedNotification.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
    }
    StringBuilder many = new StringBuilder("{\"f0\":0");
    for (int i = 1; i <= 64; i++) {
      many.append(",\"f").append(i).append("\":0");
    }
    assertThatThrownBy(() -> read(many + "}")).hasMessageContaining("more than 64 fields");
  }

  // A field only the site's CreateOrder request has, signed with the same ApiToken; a value that re-splits into one
  // of TokenPay's fields under the same signature.
  @Test
  void aRequestsFieldOrAValueThatReSplitsIsRefusedThoughSigned() throws Exception {
    Map<String, Object> request = TokenPayNotifications.paid("P4", "6f1a2b3c-0000-4000-8000-00000000e5c4", 1999);
    request.put("NotifyUrl", "https://shop.example/pay/tokenpay/notify_url");
    Map<String, String> values = read(TokenPayNotifications.post(TokenPayNotifications.signed(request,
        TokenPayNotifications.API_TOKEN)));
    assertThatThrownBy(() -> OURS.verify(values)).hasMessageContaining("NotifyUrl");

    Map<String, Object> resplit = TokenPayNotifications.paid("P4", "6f1a2b3c-0000-4000-8000-00000000e5c4", 1999);
    resplit.put("PassThroughInfo", "x&Status=1");
    Map<String, String> ambiguous = read(TokenPayNotifications.post(TokenPayNotifications.signed(resplit,
        TokenPayNotifications.API_TOKEN)));
    assertThatThrownBy(() -> OURS.verify(ambiguous)).hasMessageContaining("ambiguous");
  }
}
