package paynotify.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import paynotify.config.AppConfig;

/**
 * docs/integration.md section 6, read from the guide so that it cannot drift: its sandbox
 * configuration, laid over a live one (the shipped application.yaml with forwarding on, as a live site
 * has it), listens on no port of the live instance, opens no admin listener nginx could reach, and
 * tells the live site nothing; the guide's nginx location sends the sandbox path to its port.
 */
class SandboxRecipeTest {
  private static final String SECTION = section();

  @Test
  void theSandboxCopyCollidesWithNoLivePortAndTellsTheLiveSiteNothing() throws IOException {
    JsonObject live = shipped().put("forward", new JsonObject().put("url", "https://shop.example/paynotify-hook.php")
        .put("secret", "a-live-secret-of-32-characters!!"));
    JsonObject recipe = recipe();
    recipe.remove("alipay"); // the sandbox's own key file, which this machine has not
    AppConfig liveConfig = AppConfig.from(live, "application.yaml", Map.of());
    AppConfig sandbox = AppConfig.from(live.copy().mergeIn(recipe, true), "sandbox.yaml", Map.of());

    assertThat(liveConfig.forward()).as("the live configuration forwards").isNotNull();
    assertThat(sandbox.http().port()).as("the sandbox's http.port")
        .isNotEqualTo(liveConfig.http().port())
        .isNotEqualTo(liveConfig.admin().port());
    assertThat(sandbox.admin()).as("the sandbox's admin listener (admin.port 0: off)").isNull();
    assertThat(sandbox.forward()).as("the sandbox's forwarding (forward.url empty: off)").isNull();
    assertThat(sandbox.database().name()).isEqualTo("shop_sandbox");

    Matcher proxy = Pattern.compile("proxy_pass http://127\\.0\\.0\\.1:(\\d+)/notify/;").matcher(SECTION);
    assertThat(proxy.find()).as("section 6's nginx location").isTrue();
    assertThat(Integer.parseInt(proxy.group(1))).as("the port section 6's nginx location proxies to")
        .isEqualTo(sandbox.http().port());
  }

  /** The recipe's YAML block, the first of section 6. */
  private static JsonObject recipe() {
    String block = SECTION.substring(SECTION.indexOf("```yaml") + "```yaml".length());
    return yaml(block.substring(0, block.indexOf("```")));
  }

  private static JsonObject shipped() throws IOException {
    return yaml(Files.readString(Path.of("conf/application.yaml")));
  }

  @SuppressWarnings("unchecked")
  private static JsonObject yaml(String text) {
    return new JsonObject((Map<String, Object>) new Yaml().load(text));
  }

  private static String section() {
    try {
      String guide = Files.readString(Path.of("docs/integration.md"));
      return guide.substring(guide.indexOf("## 6. "), guide.indexOf("## 7. "));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
