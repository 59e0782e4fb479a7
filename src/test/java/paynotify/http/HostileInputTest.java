package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;

/**
 * Garbage, truncated and mangled requests on every endpoint: each gets a 4xx and the channel's
 * failure words, never a 5xx or a booking (a 5xx would make the platform retry garbage forever).
 */
class HostileInputTest extends ServiceTestBase {
  private static final String[] FRAGMENTS = {"<xml>", "</xml>", "<![CDATA[", "]]>", "&", "=", "%", "%zz", "%E4%B8",
      "sign=", "sign_type=RSA2", "trade_no=", "{", "}", "\"resource\":", "[", "]", ":", ",", "\u0000", "中文", "\uFFFF",
      "<!DOCTYPE x>", "total_fee", "out_trade_no=A1", "money=1e9", "charset=gbk", " ", "\n", "null", "true", "1.005"};

  @Test
  void randomBodiesAreRefusedWithoutA5xx() {
    Random random = new Random(20261130);
    Map<String, String> contentTypes = Map.of(
        "/notify/alipay", "application/x-www-form-urlencoded",
        "/notify/wechat/v2", "text/xml",
        "/notify/wechat/v3", "application/json",
        "/notify/epay", "application/x-www-form-urlencoded");
    for (int i = 0; i < 150; i++) {
      StringBuilder body = new StringBuilder();
      for (int f = random.nextInt(12); f >= 0; f--) {
        body.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
      }
      for (Map.Entry<String, String> endpoint : contentTypes.entrySet()) {
        Notification n = new Notification("POST", endpoint.getKey(),
            Map.of("Content-Type", endpoint.getValue(), "Wechatpay-Timestamp", "1", "Wechatpay-Nonce", "n",
                "Wechatpay-Signature", "c2ln", "Wechatpay-Serial", "PUB_KEY_ID_0119000123452026112900118800000000"),
            body.toString().getBytes(StandardCharsets.UTF_8), null);
        Reply reply = service.send(n);
        assertThat(reply.status()).as(endpoint.getKey() + " <- " + body).isBetween(400, 499);
      }
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected'")).isEqualTo(600);
  }
}
