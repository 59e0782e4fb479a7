package paynotify.testsupport;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class on a server whose global default differs from ours, as a site's server may
 * have it: set before the class's service starts (its sessions are opened after), restored after.
 */
abstract class ServerDefault implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ServerDefault.class);

  /** The setting, or null when this server has no such variable (the class is then skipped). */
  abstract ServerSetting apply(TestDatabase db);

  @Override
  public void beforeAll(ExtensionContext context) {
    ServerSetting setting = apply(TestDatabase.get());
    Assumptions.assumeTrue(setting != null, "this server has no such variable");
    context.getStore(NAMESPACE).put("setting", setting);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ServerSetting setting = context.getStore(NAMESPACE).remove("setting", ServerSetting.class);
    if (setting != null) {
      setting.close();
    }
  }
}
