package paynotify.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static paynotify.admin.StatusReportTest.NOW;
import static paynotify.admin.StatusReportTest.anomaly;
import static paynotify.admin.StatusReportTest.notification;
import static paynotify.admin.StatusReportTest.payment;

import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * /status of a running service loaded by headless Chromium (Debian package {@code chromium}; .ci/run
 * installs it): the DOM the browser built is read back, and screenshots at phone and desktop sizes are
 * left in target/ to look at. Skipped when chromium is not installed.
 */
class StatusPageBrowserTest extends DatabaseTestBase {
  static final String HOSTILE_ORDER = "<script>alert(1)</script>";

  private static TestService service;

  @BeforeAll
  static void start() throws IOException {
    assumeTrue(chromium() != null, "chromium is not installed (apt-get install chromium)");
    service = TestService.start(TestDatabase.get().settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort())));
  }

  @AfterAll
  static void stop() {
    if (service != null) {
      service.close();
    }
  }

  @Override
  protected void beforeReset() {
    if (service != null) {
      service.awaitLogRecorded();
    }
  }

  @Test
  void thePageShowsTheCountsAndAnOrderNumberHoldingMarkupAsText() throws Exception {
    payment("alipay", "A1", 1000, NOW);
    payment("alipay", "A2", 2550, NOW);
    payment("wechat", "W1", 999, NOW);
    payment("epay", "E0", 5000, NOW + " - INTERVAL 1 DAY");
    notification("alipay", "processed", "110.75.1.1", "order O-A1 paid", "3 MINUTE");
    notification("epay", "rejected", "<b>203.0.113.9</b>", "bad sign \"><img src=x onerror=alert(2)>", "2 MINUTE");
    anomaly("amount_mismatch", "O-1", 999L, "paid 9.99, order is 10.00", "2 HOUR", false);
    anomaly("unknown_order", HOSTILE_ORDER, 1000L, "no order <script>alert(3)</script>", "1 HOUR", false);
    anomaly("second_payment", "O-OLD", 1000L, "resolved", "3 HOUR", true);

    String url = "http://127.0.0.1:" + service.server().adminPort() + "/status";
    String dom = freshPage(url);

    assertThat(dom).contains("<div id=\"headline\" class=\"head bad\">")
        .contains("2 open anomalies")
        .contains("3 payments today, 45.49")
        .contains("<span id=\"anomalies-open\" class=\"red\">2</span>")
        .contains("<th class=\"num\" id=\"payments-count\">3</th>")
        .contains("<th class=\"num\" id=\"payments-amount\">45.49</th>")
        .contains(AnomalyKind.UNKNOWN_ORDER.action(), AnomalyKind.AMOUNT_MISMATCH.action())
        .doesNotContain("O-OLD");
    // What the browser built: the hostile values are text nodes, no element came out of them.
    assertThat(dom).contains("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>")
        .contains("no order &lt;script&gt;alert(3)&lt;/script&gt;")
        .contains("&lt;b&gt;203.0.113.9&lt;/b&gt;")
        .contains("bad sign \"&gt;&lt;img src=x onerror=alert(2)&gt;")
        .doesNotContainIgnoringCase("<script")
        .doesNotContainIgnoringCase("<img")
        .doesNotContain("<b>203");
    assertThat(dom.indexOf(HOSTILE_ORDER.replace("<", "&lt;").replace(">", "&gt;")))
        .as("newest first").isLessThan(dom.indexOf("O-1</code>"));

    Path phone = screenshot(url, "status-page.png", "412,915");
    Path desktop = screenshot(url, "status-page-desktop.png", "1280,900");
    assertThat(Files.size(phone)).isGreaterThan(5_000);
    assertThat(Files.size(desktop)).isGreaterThan(5_000);
  }

  @Test
  void anEmptyDatabaseIsAllClear() throws Exception {
    String dom = freshPage("http://127.0.0.1:" + service.server().adminPort() + "/status");
    assertThat(dom).contains("<div id=\"headline\" class=\"head ok\">", "All clear", "No payment yet today",
        "No notification received yet", "<span id=\"anomalies-open\">0</span>");
  }

  /**
   * The page once the report the other test was served can no longer be: the admin listener reads the
   * database at most every {@link StatusReport#CACHE_MS}.
   */
  private static String freshPage(String url) throws Exception {
    Thread.sleep(StatusReport.CACHE_MS + 500);
    return chromium("--dump-dom", url);
  }

  /** target/NAME, taken at {@code size} ("width,height"): kept as a test artifact, never committed. */
  private static Path screenshot(String url, String name, String size) throws Exception {
    Path file = Path.of("target", name).toAbsolutePath();
    Files.deleteIfExists(file);
    chromium("--screenshot=" + file, "--window-size=" + size, "--hide-scrollbars", url);
    assertThat(file).exists();
    return file;
  }

  /** Runs headless chromium with {@code args}; its stdout. */
  private static String chromium(String... args) throws Exception {
    Path profile = Files.createTempDirectory("paynotify-chromium");
    List<String> command = new ArrayList<>(List.of(chromium(), "--headless", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("chromium", ".out");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      // A script that ran (an alert) hangs the dump: bounded, and then a failure.
      assertThat(p.waitFor(45, TimeUnit.SECONDS))
          .as("chromium finished within 45 s (it does not when a script on the page opened an alert)").isTrue();
      assertThat(p.exitValue()).as("chromium's exit code").isZero();
      return Files.readString(out, StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(out);
      deleteTree(profile.toFile());
    }
  }

  private static String chromium() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(dir, "chromium");
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    return null;
  }

  private static void deleteTree(File f) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        deleteTree(c);
      }
    }
    f.delete();
  }
}
