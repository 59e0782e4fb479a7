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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import paynotify.admin.AdminSettings;
import paynotify.admin.AdminVerticle;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Platform;
import paynotify.http.NotifyVerticle;

/**
 * The pages a site owner reads name everything the code has: each anomaly kind in the one anomaly table
 * (docs/operations.md), each platform and each route the notify and admin servers register in the README and
 * the cutover guide (and each platform in docs/channels.md), each top-level config section on the page that
 * explains it. Everything is enumerated from the code, so a new kind, platform, route or section fails here
 * until it is documented.
 */
class DocsCoverageTest {
  private static final Pattern TABLE_CODE = Pattern.compile("^\\|\\s*`([a-z_]+)`\\s*\\|");
  private static final String ANOMALY_TABLE = "docs/operations.md";
  /** "The list" of every signature rule, in and out: its class javadoc. */
  private static final String SIGNATURES = "src/main/java/paynotify/channel/Signatures.java";
  /** The page that explains each top-level section of conf/application.yaml. */
  private static final Map<String, String> SECTION_PAGES = Map.ofEntries(
      Map.entry("http", "docs/operations.md"),
      Map.entry("admin", "docs/operations.md"),
      Map.entry("retention", "docs/operations.md"),
      Map.entry("database", "docs/database.md"),
      Map.entry("orders", "docs/orders-table.md"),
      Map.entry("booking", "docs/how-it-works.md"),
      Map.entry("forward", "docs/forwarding.md"),
      Map.entry("alerts", "docs/alerts.md"),
      Map.entry("alipay", "docs/channels.md"),
      Map.entry("wechat_v2", "docs/channels.md"),
      Map.entry("wechat_v3", "docs/channels.md"),
      Map.entry("epay", "docs/channels.md"),
      Map.entry("xunhupay", "docs/channels.md"),
      Map.entry("epusdt", "docs/channels.md"),
      Map.entry("vmq", "docs/channels.md"),
      Map.entry("lemonsqueezy", "docs/channels.md"),
      Map.entry("stripe", "docs/channels.md"),
      Map.entry("paypal", "docs/channels.md"),
      Map.entry("paddle", "docs/channels.md"),
      Map.entry("tokenpay", "docs/channels.md"),
      Map.entry("creem", "docs/channels.md"),
      Map.entry("recovery", "docs/operations.md"),
      Map.entry("reconcile", "docs/operations.md"));
  private static Vertx vertx;

  @BeforeAll
  static void vertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void close() {
    vertx.close().await();
  }

  @Test
  void everyAnomalyKindIsInTheAnomalyTable() throws Exception {
    assertThat(anomalyTable(read(ANOMALY_TABLE))).as(ANOMALY_TABLE + ": the anomaly table (| kind | ...)")
        .containsAll(Arrays.stream(AnomalyKind.values()).map(AnomalyKind::code).toList());
  }

  @ParameterizedTest
  @MethodSource("otherPages")
  void theAnomalyTableIsWrittenOnce(String doc) throws Exception {
    assertThat(anomalyTable(read(doc))).as(doc + ": an anomaly table (| kind | ...) beside " + ANOMALY_TABLE + "'s")
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "docs/channels.md", "docs/integration.md"})
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

  @Test
  void everyTopLevelConfigKeyIsNamedOnItsPage() throws Exception {
    List<String> sections = AppConfig.SECTIONS.stream().filter(s -> !s.contains(".")).toList();
    assertThat(SECTION_PAGES.keySet()).as("config sections with no page that explains them").containsAll(sections);
    for (String section : sections) {
      String page = SECTION_PAGES.get(section);
      assertThat(Pattern.compile("`" + section + "[.:]").matcher(read(page)).find())
          .as(page + ": config section " + section + " not named (`section:` or `section.key`)").isTrue();
    }
  }

  /**
   * channel/Signatures' javadoc is "the list" README sends a reader to: it names a class of every platform's
   * folder, every {@code *Signature} class of channel/ and forward/, in the form {@code <folder>.<Class>}.
   */
  @Test
  void theListOfSignatureRulesNamesEveryPlatform() throws Exception {
    String source = read(SIGNATURES);
    String list = source.substring(source.indexOf("/**"), source.indexOf("public final class Signatures"));
    assertThat(Arrays.stream(Platform.values()).map(Platform::code))
        .as(SIGNATURES + "'s javadoc: platforms it names no class of (<platform>.Class)")
        .allMatch(code -> list.contains("{@code " + code + "."));
    try (Stream<Path> sources = Stream.concat(Files.walk(Path.of("src/main/java/paynotify/channel")),
        Files.list(Path.of("src/main/java/paynotify/forward")))) {
      List<String> signatures = sources.filter(f -> f.getFileName().toString().endsWith("Signature.java"))
          .map(f -> f.getParent().getFileName() + "." + f.getFileName().toString().replace(".java", "")).toList();
      assertThat(signatures).as("*Signature classes").hasSizeGreaterThanOrEqualTo(Platform.values().length);
      assertThat(signatures).as(SIGNATURES + "'s javadoc: *Signature classes it does not name")
          .allMatch(signature -> list.contains("{@code " + signature + "}"));
    }
  }

  /** README.md and every page of docs/ but the one with the anomaly table. */
  static List<String> otherPages() throws Exception {
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      return Stream.concat(Stream.of(Path.of("README.md")), docs.filter(p -> p.toString().endsWith(".md")))
          .map(Path::toString).filter(p -> !p.equals(ANOMALY_TABLE)).sorted().toList();
    }
  }

  /** Every path the two servers route, with every channel (off, so each path is routed to its hint). */
  private static Set<String> routes() {
    ChannelsConfig off = ChannelsConfig.from(new ConfigReader(new JsonObject(), "none"), java.time.Clock.systemUTC(),
        paynotify.store.OrderNumbers.AS_IS, paynotify.store.OrdersTable.AmountUnit.CENTS);
    NotifyVerticle notify = new NotifyVerticle(AppConfig.from(new JsonObject(), "none", Map.of()).http(),
        off.enabled(), off.disabled(), null, null, null, null, null, null, null, null);
    notify.init(vertx, vertx.getOrCreateContext());
    AdminVerticle admin = new AdminVerticle(new AdminSettings("127.0.0.1", 8081, null, true), null, null, null, null,
        null);
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
