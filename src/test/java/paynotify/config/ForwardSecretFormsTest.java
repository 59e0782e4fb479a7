package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.TestService;

/** What forward's secrets may be: a Standard Webhooks whsec_ one, or any other of 16 characters and more. */
class ForwardSecretFormsTest {
  @TempDir
  static Path dir;

  private static AppConfig with(JsonObject forward) {
    return AppConfig.from(TestService.configuration(new JsonObject().put("forward",
        forward.put("url", "http://127.0.0.1:9/hook"))), "test", Map.of());
  }

  @Test
  void aWhsecSecretMustBeBase64OfTwentyFourToSixtyFourBytes() {
    assertThat(with(new JsonObject().put("secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).forward().endpoints().get(0).secrets())
        .containsExactly("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    assertThatThrownBy(() -> with(new JsonObject().put("secret", "whsec_not-base64-at-all-!!")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("base64 does not decode")
        .hasMessageNotContaining("not-base64-at-all");
    assertThatThrownBy(() -> with(new JsonObject().put("secret", "whsec_c2hvcnQ=")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("encodes 24 to 64 bytes, this one 5");
  }

  @Test
  void rotationListsTheFilesNewestFirstAndExcludesASingleSecret() throws Exception {
    Path newer = PrivateFile.write(dir.resolve("new"), "0123456789abcdef-new");
    Path older = PrivateFile.write(dir.resolve("old"), "0123456789abcdef-old\n");
    JsonArray files = new JsonArray().add(newer.toString()).add(older.toString());
    assertThat(with(new JsonObject().put("secret_files", files)).forward().endpoints().get(0).secrets())
        .isEqualTo(List.of("0123456789abcdef-new", "0123456789abcdef-old"));
    assertThatThrownBy(() -> with(new JsonObject().put("secret_files", files).put("secret", "0123456789abcdef")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("forward.secret_files: set either it or");
  }

  /** Security review N5: a refused forward.url is not echoed, as it may carry credentials or a key. */
  @Test
  void aRefusedUrlIsNotEchoed() {
    JsonObject forward = new JsonObject().put("url", "ftp://hookuser:HOOK-PASS@127.0.0.1/hook?key=QUERY-KEY")
        .put("secret", "0123456789abcdef-secret");
    assertThatThrownBy(() -> AppConfig.from(TestService.configuration(new JsonObject().put("forward", forward)), "test",
        Map.of())).isInstanceOf(ConfigException.class)
        .hasMessage("test: forward.url: is not an http:// or https:// URL with a host (not shown: it may hold"
            + " credentials)");
  }
}
