package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.forward.ForwardSettings;
import paynotify.testsupport.TestService;

/** forward.endpoints: named, each with its URL, secret and events; forward.url alone is one named site. */
class ForwardEndpointsConfigTest {
  private static final String SECRET = "0123456789abcdef-endpoints";

  private static ForwardSettings with(JsonObject forward) {
    return AppConfig.from(TestService.configuration(new JsonObject().put("forward", forward)), "test", Map.of())
        .forward();
  }

  private static JsonObject endpoint(String name) {
    return new JsonObject().put("name", name).put("url", "https://" + name + ".example/hook").put("secret", SECRET);
  }

  @Test
  void eachEndpointHasItsOwnEventsAndTheStatementsAreWrittenForThoseThatWantThem() {
    ForwardSettings f = with(new JsonObject().put("endpoints", new JsonArray()
        .add(endpoint("shop"))
        .add(endpoint("tg-bridge").put("events", new JsonArray().add("anomaly.created")))));
    assertThat(f.endpoints()).extracting(ForwardSettings.Endpoint::name).containsExactly("shop", "tg-bridge");
    assertThat(f.endpointsByType()).containsEntry("payment.succeeded", List.of("shop"))
        .containsEntry("anomaly.created", List.of("shop", "tg-bridge"));
    assertThat(f.disableAfter4xx()).isEqualTo(10);
  }

  @Test
  void forwardUrlAloneIsOneEndpointNamedSite() {
    ForwardSettings f = with(new JsonObject().put("url", "http://127.0.0.1:9/hook").put("secret", SECRET));
    assertThat(f.endpoints()).singleElement().satisfies(e -> {
      assertThat(e.name()).isEqualTo(ForwardSettings.SITE);
      assertThat(e.events()).hasSize(4);
    });
  }

  @Test
  void unclearEndpointsStopTheStart() {
    assertThatThrownBy(() -> with(new JsonObject().put("url", "http://127.0.0.1:9/hook").put("secret", SECRET)
        .put("endpoints", new JsonArray().add(endpoint("shop")))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("set either forward.url");
    assertThatThrownBy(() -> with(new JsonObject().put("endpoints", new JsonArray().add(endpoint("shop"))
        .add(endpoint("shop"))))).hasMessageContaining("forward.endpoints[1].name: 'shop' names another endpoint");
    assertThatThrownBy(() -> with(new JsonObject().put("endpoints", new JsonArray().add(endpoint("Shop'; --")))))
        .hasMessageContaining("forward.endpoints[0].name: required: 1 to 32 of a-z");
    assertThatThrownBy(() -> with(new JsonObject().put("endpoints", new JsonArray()
        .add(endpoint("shop").put("url", null))))).hasMessageContaining("forward.endpoints[0].url: required");
    assertThatThrownBy(() -> with(new JsonObject().put("endpoints", new JsonArray()
        .add(endpoint("shop").put("secret", null))))).hasMessageContaining("forward.endpoints[0].secret_file: required");
    assertThatThrownBy(() -> with(new JsonObject().put("endpoints", new JsonArray()
        .add(endpoint("shop").put("events", new JsonArray().add("payment.created"))))))
        .hasMessageContaining("forward.endpoints[0].events: 'payment.created' is not one of");
  }
}
