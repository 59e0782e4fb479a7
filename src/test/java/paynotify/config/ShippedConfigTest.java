package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import paynotify.testsupport.TestService;

/**
 * conf/application.yaml as shipped holds every key the code reads, active or commented out, and no key
 * the code does not read: the keys are collected from the reader itself, with every channel and
 * feature on (so the keys read only then are asked for too).
 */
class ShippedConfigTest {
  private static final Path SHIPPED = Path.of("conf/application.yaml");

  @Test
  void theShippedFileHasEveryKeyTheReaderAsksForAndNoOther() throws Exception {
    Set<String> read = keysRead();
    Set<String> inFile = ConfigTemplate.keys(Files.readString(SHIPPED));
    assertThat(difference(read, inFile)).as("read by paynotify, missing from " + SHIPPED).isEmpty();
    assertThat(difference(inFile, read)).as("in " + SHIPPED + ", never read by paynotify").isEmpty();
  }

  @Test
  void theShippedFileHasNoUnknownKeyAndATypoIsOne() throws Exception {
    JsonObject shipped = new JsonObject(new Yaml().<Map<String, Object>>load(Files.readString(SHIPPED)));
    Set<String> known = new TreeSet<>(ConfigTemplate.shipped());
    known.addAll(keysRead());
    assertThat(UnknownKeys.in(shipped, known)).isEmpty();
    shipped.getJsonObject("alipay").put("publik_key_file", "/etc/paynotify/alipay_public.pem");
    assertThat(UnknownKeys.in(shipped, known)).containsExactly("alipay.publik_key_file");
  }

  @Test
  void eachKeyOfTheShippedFileSaysTheDefaultTheReaderFallsBackTo() throws Exception {
    Map<String, String> inFile = ConfigTemplate.values(Files.readString(SHIPPED));
    Map<String, String> wrong = new TreeMap<>();
    everythingOn().defaults().forEach((key, fallback) -> {
      if (!fallback.equals(inFile.get(key))) {
        wrong.put(key, "the default is '" + fallback + "', the file says '" + inFile.get(key) + "'");
      }
    });
    assertThat(wrong).as(SHIPPED + ": keys whose value is not the default").isEmpty();
  }

  /** Every key read, with forward.url and with forward.endpoints (one or the other is read). */
  private static Set<String> keysRead() {
    Set<String> read = new TreeSet<>(everythingOn().keysRead());
    JsonObject endpoints = TestService.configuration(new JsonObject().put("forward", new JsonObject()
        .put("endpoints", new JsonArray().add(new JsonObject().put("name", "site")
            .put("url", "http://127.0.0.1/paynotify-hook.php").put("secret", "0123456789abcdef0123")))));
    ConfigReader c = new ConfigReader(ConfigReader.withEnv(endpoints, Map.of(), AppConfig.SECTIONS), "endpoints.yaml");
    assertThat(AppConfig.read(c).forward().endpoints()).hasSize(1);
    read.addAll(c.keysRead());
    return read;
  }

  /** Every channel, the forward relay and the admin listener on; every key is recorded, given or not. */
  private static ConfigReader everythingOn() {
    JsonObject all = TestService.configuration(new JsonObject()
        .put("admin", new JsonObject().put("token", "0123456789abcdef0123"))
        .put("forward", new JsonObject().put("url", "http://127.0.0.1/paynotify-hook.php")
            .put("secret", "0123456789abcdef0123")));
    // The shipped ports: http.port 8080 and admin.port unset, so that it follows (and records http.port + 1).
    all.getJsonObject("http").put("port", 8080);
    all.getJsonObject("admin").remove("port");
    ConfigReader c = new ConfigReader(ConfigReader.withEnv(all, Map.of(), AppConfig.SECTIONS), "all.yaml");
    AppConfig config = AppConfig.read(c);
    assertThat(config.channels().disabled()).as("channels off").isEmpty();
    assertThat(config.forward()).isNotNull();
    assertThat(config.admin()).isNotNull();
    return c;
  }

  private static Set<String> difference(Set<String> a, Set<String> b) {
    Set<String> d = new TreeSet<>(a);
    d.removeAll(b);
    return d;
  }
}
