package paynotify.testsupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One running service per test class on the test database, emptied before every test. */
public abstract class ServiceTestBase extends DatabaseTestBase {
  protected static TestService service;

  @BeforeAll
  static void startService() {
    service = TestService.start();
  }

  @AfterAll
  static void stopService() {
    service.close();
  }

  /** Restarts the service, so that its new sessions inherit the server's globals as they are now. */
  protected static void restartService() {
    service.close();
    service = TestService.start();
  }

  @Override
  protected void beforeReset() {
    service.awaitLogRecorded(); // a batch of the previous test's must not land in this one
  }
}
