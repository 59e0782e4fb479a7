package paynotify.channel.epusdt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;

/** The signature against the gateways' published examples, and Go's ways of writing a number. */
class EpusdtSignatureTest {
  private static final String WIKI_TOKEN = "epusdt_password_xasddawqe"; // assimon/epusdt wiki/API.md

  private static EpusdtSignature.Fields read(String json) throws RejectedNotification {
    return EpusdtSignature.read(json.getBytes(StandardCharsets.UTF_8));
  }

  // wiki/API.md (assimon/epusdt; the same in BEpusdt's docs/api/api.md): amount=42&notify_url=... -> 1cd4b52d...
  @Test
  void theWikisExample() throws Exception {
    EpusdtSignature.Fields fields = read("{\"order_id\":\"20220201030210321\",\"amount\":42,"
        + "\"notify_url\":\"http://example.com/notify\",\"redirect_url\":\"http://example.com/redirect\"}");
    assertThat(new EpusdtSignature(WIKI_TOKEN, null).sign(fields.values())).isEqualTo("1cd4b52df5587cfb1968b0c0c6e156cd");
  }

  // GMWalletApp/epusdt wiki/API.md: "100.00 会被解析为 100" (FormatFloat of the float64), secret epusdt_secret_key.
  @Test
  void gmWalletsExampleWithTheAmountWrittenWithZeros() throws Exception {
    EpusdtSignature.Fields fields = read("{\"pid\":\"1000\",\"order_id\":\"ORD202605230001\",\"currency\":\"cny\","
        + "\"token\":\"usdt\",\"network\":\"tron\",\"amount\":100.00,\"notify_url\":\"https://merchant.example/notify\","
        + "\"redirect_url\":\"https://merchant.example/return\",\"name\":\"VIP\"}");
    assertThat(fields.values().get("amount")).isEqualTo("100");
    assertThat(new EpusdtSignature("epusdt_secret_key", "1000").sign(fields.values()))
        .isEqualTo("476412c422f4dd75c3d533f5c47a9cac");
  }

  // BEpusdt signs fmt.Sprintf("%v", float64): 1e+06 from a million up. Computed with
  // printf '%s' 'actual_amount=142.86&amount=1e+06&order_id=BIG-1&status=2&trade_id=2026...0001<token>' | md5sum
  @Test
  void bepusdtsExponentFormOfAMillion() throws Exception {
    EpusdtSignature.Fields fields = read("{\"trade_id\":\"202612050000000000000001\",\"order_id\":\"BIG-1\","
        + "\"amount\":1000000,\"actual_amount\":\"142.86\",\"status\":2,"
        + "\"signature\":\"92b5ecf3fdddee2eb52475ce0fcf2ad9\"}");
    new EpusdtSignature(WIKI_TOKEN, null).verify(fields);
    assertThat(fields.values().get("amount")).isEqualTo("1000000");
  }

  @Test
  void nullAndEmptyAreLeftOutZeroIsSigned() throws Exception {
    EpusdtSignature signature = new EpusdtSignature(WIKI_TOKEN, null);
    String base = signature.sign(read("{\"order_id\":\"A\"}").values());
    assertThat(signature.sign(read("{\"order_id\":\"A\",\"x\":null,\"y\":\"\"}").values())).isEqualTo(base);
    assertThat(signature.sign(read("{\"order_id\":\"A\",\"x\":0}").values())).isNotEqualTo(base);
  }

  @Test
  void whatSignGoCannotSignIsRefused() {
    for (String body : new String[] {"{\"a\":{\"b\":1}}", "{\"a\":[1]}", "{\"a\":true}", "[1]", "{\"a\":1e3}",
        "{\"a\":\"x\",\"a\":\"y\"}", "{\"a\":1} {}", "not json"}) {
      assertThatThrownBy(() -> read(body)).as(body).isInstanceOfSatisfying(RejectedNotification.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
    }
  }

  // The wiki's create-transaction request, signed with the same token, with status and trade_id beside it.
  @Test
  void aFieldOfTheSitesRequestIsRefused() throws Exception {
    EpusdtSignature signature = new EpusdtSignature(WIKI_TOKEN, null);
    String unsigned = "{\"order_id\":\"O1\",\"amount\":42,\"notify_url\":\"http://example.com/notify\","
        + "\"status\":2,\"trade_id\":\"T1\"";
    String signed = unsigned + ",\"signature\":\"" + signature.sign(read(unsigned + "}").values()) + "\"}";
    assertThatThrownBy(() -> signature.verify(read(signed))).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED)).hasMessageContaining("notify_url");
  }

  @Test
  void anotherPidIsAnotherMerchant() throws Exception {
    EpusdtSignature signature = new EpusdtSignature(WIKI_TOKEN, "1000");
    String unsigned = "{\"pid\":\"1001\",\"trade_id\":\"T1\",\"order_id\":\"O1\",\"amount\":1,\"status\":2";
    String signed = unsigned + ",\"signature\":\"" + signature.sign(read(unsigned + "}").values()) + "\"}";
    assertThatThrownBy(() -> signature.verify(read(signed))).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.WRONG_MERCHANT));
  }
}
