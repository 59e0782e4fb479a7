package paynotify.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.Installation;
import paynotify.testsupport.ServiceProcess;

/**
 * docs/operations.md, "A second instance on this machine", read from that page so that it cannot drift: the
 * shipped configuration as a site fills it in (its database, a channel), and a copy changed as the
 * recipe says, started as the recipe says in an installation ({@code scripts/start.sh}, then
 * {@code scripts/start.sh --config conf/second.yaml}): two real processes on one database, both book and
 * both answer on their own admin port. Every port of both files is moved by one offset, so that the test
 * never takes 8080 from a paynotify running on this machine; the files are otherwise the shipped one and
 * the recipe's lines.
 */
class SecondInstanceRecipeTest extends DatabaseTestBase {
  private static final Duration START = Duration.ofSeconds(60);
  private static final String SECTION = section();
  private static final ChannelFixture alipay = ChannelFixture.alipay();

  @TempDir
  Path dir;

  private Path installation;

  @BeforeEach
  void install() throws IOException {
    installation = Installation.install(dir.resolve("opt/paynotify"));
    Files.createDirectories(installation.resolve("conf"));
  }

  @Test
  void twoInstancesStartedAsTheRecipeSaysBothServe() throws Exception {
    JsonObject first = site();
    JsonObject second = first.copy().mergeIn(recipe(), true);
    int offset = ServiceProcess.freePorts(4) - first.getJsonObject("http").getInteger("port");
    db.insertOrder("TWO1", 1000);
    db.insertOrder("TWO2", 2000);

    try (ServiceProcess one = start(first, offset, "application");
        ServiceProcess two = start(second, offset, "second")) {
      one.awaitHealth(200, START);
      two.awaitHealth(200, START);
      assertThat(Http.send(one.port(), alipay.payment("TWO1", "2026120122001400000000000001", 1000, 0)))
          .as("booked through the first").matches(alipay.success());
      assertThat(Http.send(two.port(), alipay.payment("TWO2", "2026120122001400000000000002", 2000, 0)))
          .as("booked through the second").matches(alipay.success());

      assertThat(db.orderStatus("TWO1")).isEqualTo("paid");
      assertThat(db.orderStatus("TWO2")).isEqualTo("paid");
      for (ServiceProcess p : List.of(one, two)) {
        int admin = p.port() + 1; // neither file sets admin.port: it follows http.port
        assertThat(Http.get(admin, "/status.json").status()).as("/status.json on %d", admin).isEqualTo(200);
        assertThat(Http.get(admin, "/metrics").body()).as("/metrics on %d: the one notification it booked", admin)
            .contains("paynotify_notifications_total{channel=\"alipay\",outcome=\"processed\"} 1.0");
        System.out.printf("instance on %d, its log:%n%s", p.port(), p.log()); // the two-instance run, for the record
      }
    }
  }

  @Test
  void aCopyThatKeepsAPortOfTheFirstStopsNamingTheKeyToChange() throws Exception {
    JsonObject first = site();
    int shippedPort = first.getJsonObject("http").getInteger("port");
    int offset = ServiceProcess.freePorts(4) - shippedPort;
    try (ServiceProcess one = start(first, offset, "application")) {
      one.awaitHealth(200, START);
      try (ServiceProcess same = start(first, offset, "same")) {
        assertThat(same.exitCode(START)).as("the same configuration again").isEqualTo(2);
        assertThat(same.lastErrorLine())
            .contains(": http.port: the port is already in use (127.0.0.1:" + one.port() + ": ")
            .contains("Another paynotify on this machine? Give this one other ports: http.port, and admin.port if set");
      }
      JsonObject pinned = first.copy().mergeIn(recipe(), true);
      pinned.getJsonObject("admin").put("port", shippedPort + 1); // the first's, written out
      try (ServiceProcess copy = start(pinned, offset, "pinned")) {
        assertThat(copy.exitCode(START)).as("another http.port, the first's admin.port").isEqualTo(2);
        assertThat(copy.lastErrorLine())
            .startsWith("paynotify: admin.port: cannot listen on 127.0.0.1:" + (one.port() + 1) + " ")
            .contains("Another paynotify on this machine? Give this one another admin.port (0: off)");
      }
    }
  }

  @Test
  void theRecipesUpstreamNamesBothInstances() {
    JsonObject second = site().mergeIn(recipe(), true);
    Matcher servers = Pattern.compile("server 127\\.0\\.0\\.1:(\\d+);").matcher(SECTION);
    List<Integer> ports = servers.results().map(m -> Integer.valueOf(m.group(1))).toList();
    assertThat(ports).as("the recipe's nginx upstream").containsExactly(
        site().getJsonObject("http").getInteger("port"), second.getJsonObject("http").getInteger("port"));
  }

  /**
   * Writes {@code config}, its ports moved by {@code offset}, as conf/{@code name}.yaml of the installation,
   * and starts it there as the recipe does: {@code scripts/start.sh} for conf/application.yaml, else
   * {@code scripts/start.sh --config conf/<name>.yaml}.
   */
  private ServiceProcess start(JsonObject config, int offset, String name) throws IOException {
    JsonObject moved = config.copy();
    int port = moved.getJsonObject("http").getInteger("port") + offset;
    moved.getJsonObject("http").put("port", port);
    JsonObject admin = moved.getJsonObject("admin");
    Integer adminPort = admin.getInteger("port");
    if (adminPort != null && adminPort != 0) {
      admin.put("port", adminPort + offset);
    }
    String file = "conf/" + name + ".yaml";
    Files.writeString(installation.resolve(file), moved.encodePrettily()); // YAML reads JSON
    Path logs = Files.createDirectories(dir.resolve("logs").resolve(name));
    return name.equals("application") ? ServiceProcess.startSh(installation, port, logs)
        : ServiceProcess.startSh(installation, port, logs, "--config", file);
  }

  /** The shipped file with what a site fills in: its database and a channel's keys. */
  private static JsonObject site() {
    DatabaseSettings settings = db.settings();
    JsonObject site = yaml(read("conf/application.yaml"));
    site.getJsonObject("database").put("host", settings.host()).put("port", settings.port())
        .put("name", settings.name()).put("user", settings.user()).put("password", settings.password());
    site.getJsonObject("alipay").put("app_id", AlipayNotifications.APP_ID)
        .put("seller_id", AlipayNotifications.SELLER_ID).put("public_key", AlipayNotifications.PUBLIC_KEY_PEM);
    return site;
  }

  /** The recipe's YAML block, the section's first. */
  private static JsonObject recipe() {
    String block = SECTION.substring(SECTION.indexOf("```yaml") + "```yaml".length());
    return yaml(block.substring(0, block.indexOf("```")));
  }

  @SuppressWarnings("unchecked")
  private static JsonObject yaml(String text) {
    return new JsonObject((Map<String, Object>) new Yaml().load(text));
  }

  private static String section() {
    String page = read("docs/operations.md");
    int start = page.indexOf("## A second instance on this machine");
    return page.substring(start, page.indexOf("\n## ", start));
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
