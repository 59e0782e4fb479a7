package paynotify.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.HostileBodies;

class FormBodyTest {
  @Test
  void decodesEscapesPlusAndEmptyValues() throws Exception {
    Map<String, String> p = FormBody.decode(
        "a=1&b=x+y%2Bz&c=&d&e=%E4%B8%AD%E6%96%87&f=a%3Db%26c".getBytes(StandardCharsets.US_ASCII),
        StandardCharsets.UTF_8);
    assertThat(p).containsExactly(Map.entry("a", "1"), Map.entry("b", "x y+z"), Map.entry("c", ""),
        Map.entry("d", ""), Map.entry("e", "中文"), Map.entry("f", "a=b&c"));
  }

  @Test
  void decodesInTheGivenCharset() throws Exception {
    Charset gbk = Charset.forName("GBK");
    assertThat(FormBody.decode("s=%D6%D0%CE%C4".getBytes(StandardCharsets.US_ASCII), gbk)).containsEntry("s", "中文");
  }

  /** Plain ASCII parts skip the decoder; anything else, and any charset where ASCII bytes are not ASCII, does not. */
  @Test
  void readsRawBytesInTheCharsetAndOnlyAsciiAsItself() throws Exception {
    assertThat(FormBody.decode("s=中文&t=a".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
        .containsExactly(Map.entry("s", "中文"), Map.entry("t", "a"));
    assertThat(FormBody.decode("kk=ab".getBytes(StandardCharsets.US_ASCII), StandardCharsets.UTF_16BE))
        .containsExactly(Map.entry("\u6b6b", "\u6162"));
    assertThatThrownBy(() -> FormBody.decode(new byte[] {'a', '=', (byte) 0xFF}, StandardCharsets.UTF_8))
        .isInstanceOf(RejectedNotification.class);
  }

  @Test
  void rejectsWhatItCannotDecodeExactly() {
    for (String body : new String[] {"a=%E4%B8", "a=%zz", "a=%4", "a=1&a=2", "a=%FF"}) {
      assertThatThrownBy(() -> FormBody.decode(body.getBytes(StandardCharsets.US_ASCII), StandardCharsets.UTF_8))
          .as(body).isInstanceOf(RejectedNotification.class);
    }
  }

  @Test
  void rawValueReadsWithoutDecoding() {
    byte[] body = "x=1&charset=gbk&y=2".getBytes(StandardCharsets.US_ASCII);
    assertThat(FormBody.rawValue(body, "charset")).isEqualTo("gbk");
    assertThat(FormBody.rawValue(body, "z")).isNull();
  }

  /**
   * Anyone can send this before any signature is checked: 1 MiB of distinct names without '='.
   * Searching for '=' to the end of the body for every pair took 13 s here; one pass takes milliseconds,
   * and the parameter count refuses it before anything is decoded.
   */
  @Test
  void megabyteOfNamesWithoutValuesIsRefusedInOnePass() {
    byte[] body = HostileBodies.namesWithoutValues(1024 * 1024);
    assertTimeoutPreemptively(Duration.ofSeconds(2), () -> assertThatThrownBy(
        () -> FormBody.decode(body, StandardCharsets.UTF_8)).isInstanceOf(RejectedNotification.class));
    assertThat(assertTimeoutPreemptively(Duration.ofSeconds(2), () -> FormBody.rawValue(body, "charset"))).isNull();
  }

  /** More parameters, or more blank values, than any platform sends: refused, not decoded. */
  @Test
  void formsOfTooManyParametersOrBlankValuesAreRefused() throws Exception {
    String atCap = IntStream.range(0, FormBody.MAX_PARAMETERS).mapToObj(i -> "a" + i + "=1")
        .collect(Collectors.joining("&"));
    assertThat(FormBody.decode(atCap.getBytes(StandardCharsets.US_ASCII), StandardCharsets.UTF_8))
        .hasSize(FormBody.MAX_PARAMETERS);
    assertThatThrownBy(() -> FormBody.decode((atCap + "&z=1").getBytes(StandardCharsets.US_ASCII),
        StandardCharsets.UTF_8)).isInstanceOf(RejectedNotification.class).hasMessageContaining("parameters");
    String blanks = IntStream.range(0, FormBody.MAX_BLANK_VALUES).mapToObj(i -> "b" + i + "=")
        .collect(Collectors.joining("&", "a=1&", ""));
    assertThat(FormBody.decode(blanks.getBytes(StandardCharsets.US_ASCII), StandardCharsets.UTF_8))
        .hasSize(FormBody.MAX_BLANK_VALUES + 1);
    for (String more : new String[] {"&z=", "&z", "&z=+", "&z=%20"}) {
      assertThatThrownBy(() -> FormBody.decode((blanks + more).getBytes(StandardCharsets.US_ASCII),
          StandardCharsets.UTF_8)).as(more).isInstanceOf(RejectedNotification.class).hasMessageContaining("blank");
    }
  }
}
