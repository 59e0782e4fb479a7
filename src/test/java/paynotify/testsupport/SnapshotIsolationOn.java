package paynotify.testsupport;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class on a server with {@code innodb_snapshot_isolation=ON}, as MariaDB 11.6+
 * (Debian 13's 11.8) has it by default; set before the class's service starts, restored after.
 */
public final class SnapshotIsolationOn implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SnapshotIsolationOn.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    TestDatabase db = TestDatabase.get();
    Assumptions.assumeTrue(ServerSetting.exists(db, "innodb_snapshot_isolation"),
        "this server has no innodb_snapshot_isolation");
    context.getStore(NAMESPACE).put("setting", ServerSetting.set(db, "innodb_snapshot_isolation", "ON"));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ServerSetting setting = context.getStore(NAMESPACE).remove("setting", ServerSetting.class);
    if (setting != null) {
      setting.close();
    }
  }
}
