package paynotify.app;

import java.net.BindException;
import java.nio.file.Path;
import paynotify.admin.AdminSettings;
import paynotify.http.HttpSettings;

/**
 * What a start says when a port it listens on is taken: on a site's machine, most often by another
 * paynotify started from a copy of the same configuration. Names the keys to change.
 */
final class PortInUse {
  private static final String ANOTHER = ". Another paynotify on this machine? Give this one ";
  private static final String RECIPE = "; README, \"A second instance on this machine\"";

  private PortInUse() {}

  /** Whether {@code e} (or what caused it) is a listen that found its port taken. */
  static boolean taken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return true;
      }
    }
    return false;
  }

  static ConfigException http(Path config, HttpSettings http, Throwable e) {
    return new ConfigException(config + ": http.port: the port is already in use (" + http.host() + ":"
        + http.port() + ": " + e.getMessage() + ")" + ANOTHER + "other ports: http.port, and admin.port if set"
        + " (unset, it follows http.port)" + RECIPE);
  }

  static ConfigException admin(AdminSettings admin, Throwable e) {
    String at = "admin.port: cannot listen on " + admin + ": " + e.getMessage();
    if (!taken(e)) {
      return new ConfigException(at + " (another port, or 0 for off)");
    }
    return new ConfigException(at + ANOTHER + (admin.followsHttpPort()
        ? "other ports: another http.port (admin.port, unset, is http.port + 1), or an admin.port of its own (0: off)"
        : "another admin.port (0: off)") + RECIPE);
  }
}
