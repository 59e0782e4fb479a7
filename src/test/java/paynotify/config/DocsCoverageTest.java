package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import paynotify.admin.AdminSettings;
import paynotify.admin.AdminVerticle;
import paynotify.booking.AnomalyKind;
import paynotify.channel.Platform;
import paynotify.http.NotifyVerticle;

/**
 * The guides a site owner reads name everything the code has: each anomaly kind in the doc's anomaly table,
 * each platform, each route the notify and admin servers register, each top-level config section. Everything
 * is enumerated from the code, so a new kind, platform, route or section fails here until it is documented.
 */
class DocsCoverageTest {
  private static final Pattern TABLE_CODE = Pattern.compile("^\\|\\s*`([a-z_]+)`\\s*\\|");
  private static Vertx vertx;

  @BeforeAll
  static void vertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void close() {
    vertx.close().await();
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/integration.md"})
  void everyAnomalyKindIsInTheAnomalyTable(String doc) throws Exception {
    assertThat(anomalyTable(read(doc))).as(doc + ": the anomaly table (| kind | ...)")
        .containsAll(Arrays.stream(AnomalyKind.values()).map(AnomalyKind::code).toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/integration.md"})
  void everyPlatformIsNamed(String doc) throws Exception {
    String text = read(doc);
    assertThat(Arrays.stream(Platform.values()).map(Platform::code))
        .as(doc + ": platforms (as stored, `code`) not named").allMatch(code -> text.contains("`" + code + "`"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/integration.md"})
  void everyEndpointIsNamed(String doc) throws Exception {
    String text = read(doc);
    // the whole path: /status is not named by /status.json
    assertThat(routes()).as(doc + ": routes not named").isNotEmpty()
        .allMatch(path -> Pattern.compile(Pattern.quote(path) + "(?![\\w./])").matcher(text).find());
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/integration.md"})
  void everyTopLevelConfigKeyIsNamed(String doc) throws Exception {
    String text = read(doc);
    List<String> sections = AppConfig.SECTIONS.stream().filter(s -> !s.contains(".")).toList();
    assertThat(sections).as(doc + ": config sections not named (`section:` or `section.key`)")
        .allMatch(s -> Pattern.compile("`" + s + "[.:]").matcher(text).find());
  }

  /** Every path the two servers route, with every channel (off, so each path is routed to its hint). */
  private static Set<String> routes() {
    ChannelsConfig off = ChannelsConfig.from(new ConfigReader(new JsonObject(), "none"), java.time.Clock.systemUTC());
    NotifyVerticle notify = new NotifyVerticle(AppConfig.from(new JsonObject(), "none", Map.of()).http(),
        off.enabled(), off.disabled(), null, null, null, null, null, null);
    notify.init(vertx, vertx.getOrCreateContext());
    AdminVerticle admin = new AdminVerticle(new AdminSettings("127.0.0.1", 8081, null, true), null, null, null);
    admin.init(vertx, vertx.getOrCreateContext());
    Set<String> paths = new TreeSet<>();
    for (Router router : List.of(notify.router(), admin.router())) {
      router.getRoutes().stream().map(Route::getPath).filter(Objects::nonNull).forEach(paths::add);
    }
    return paths;
  }

  /** The codes in the first column of the doc's tables headed {@code | kind |}. */
  private static Set<String> anomalyTable(String text) {
    Set<String> codes = new TreeSet<>();
    boolean inTable = false;
    for (String line : text.split("\n")) {
      if (!line.startsWith("|")) {
        inTable = false;
      } else if (line.matches("\\|\\s*kind\\s*\\|.*")) {
        inTable = true;
      } else if (inTable) {
        Matcher code = TABLE_CODE.matcher(line);
        if (code.find()) {
          codes.add(code.group(1));
        }
      }
    }
    return codes;
  }

  private static String read(String doc) throws Exception {
    return Files.readString(Path.of(doc));
  }
}
