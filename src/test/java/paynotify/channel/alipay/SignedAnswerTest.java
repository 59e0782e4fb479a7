package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The signed text is cut out of Alipay's answer exactly as sent, whatever its strings hold. */
class SignedAnswerTest {
  @Test
  void theObjectIsCutAsSentWithItsSpacingAndEscapes() {
    String inner = "{ \"code\":\"10000\", \"subject\":\"a } \\\" { b\", \"list\":[{\"x\":1}] }";
    String body = "{\"alipay_trade_query_response\" : " + inner + ",\"sign\":\"c2ln\"}";
    assertThat(SignedAnswer.text(body, "alipay_trade_query_response")).isEqualTo(inner);
    assertThat(SignedAnswer.sign(body)).isEqualTo("c2ln");
  }

  @Test
  void aNameInsideAStringOrANestedObjectIsNotTheMember() {
    String body = "{\"note\":\"\\\"alipay_trade_query_response\\\":{}\",\"x\":{\"alipay_trade_query_response\":{\"a\":1}},"
        + "\"alipay_trade_query_response\":{\"b\":2}}";
    assertThat(SignedAnswer.text(body, "alipay_trade_query_response")).isEqualTo("{\"b\":2}");
  }

  @Test
  void noMemberOrACutBodyIsNull() {
    assertThat(SignedAnswer.text("{\"error_response\":{\"code\":\"40002\"}}", "alipay_trade_query_response")).isNull();
    assertThat(SignedAnswer.text("{\"alipay_trade_query_response\":{\"code\":\"1", "alipay_trade_query_response"))
        .isNull();
    assertThat(SignedAnswer.text("not json", "alipay_trade_query_response")).isNull();
    assertThat(SignedAnswer.sign("not json")).isNull();
  }
}
