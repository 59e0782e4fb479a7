package paynotify.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The stand-ins serve bills over http on 127.0.0.1, where a platform's signed answer points at https: a test
 * class that fetches them sets {@code paynotify.test.loopback_http} for its run ({@code @ExtendWith}), which
 * also reaches the daily close's command. Without it, paynotify asks such a URL as production does.
 */
public final class LoopbackBillUrls implements BeforeAllCallback, AfterAllCallback {
  public static final String PROPERTY = "paynotify.test.loopback_http";

  @Override
  public void beforeAll(ExtensionContext context) {
    System.setProperty(PROPERTY, "true");
  }

  @Override
  public void afterAll(ExtensionContext context) {
    System.clearProperty(PROPERTY);
  }

  /** What a test runs as outside the tests. */
  public interface Production {
    void run() throws Exception;
  }

  /** Runs {@code production} as outside the tests: no allowance for http on this machine. */
  public static void without(Production production) throws Exception {
    String before = System.clearProperty(PROPERTY);
    try {
      production.run();
    } finally {
      if (before != null) {
        System.setProperty(PROPERTY, before);
      }
    }
  }
}
