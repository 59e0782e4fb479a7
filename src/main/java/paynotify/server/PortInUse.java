package paynotify.server;

import java.net.BindException;
import java.nio.file.Path;
import paynotify.admin.AdminSettings;
import paynotify.config.ConfigException;
import paynotify.http.HttpSettings;

/**
 * What a start says when the kernel refuses a listen: a port that is taken (on a site's machine, most
 * often by another paynotify started from a copy of the same configuration), or a host that is not an
 * address of this machine. Names the keys to change.
 */
public final class PortInUse {
  private static final String ANOTHER = ". Another paynotify on this machine? Give this one ";
  private static final String RECIPE = "; README, \"A second instance on this machine\"";
  private static final String IN_USE = "Address already in use"; // EADDRINUSE; EADDRNOTAVAIL is the other

  private PortInUse() {}

  /** Whether {@code e} (or what caused it) is a refused listen: a taken port or a foreign host. */
  public static boolean taken(Throwable e) {
    return bind(e) != null;
  }

  private static BindException bind(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException b) {
        return b;
      }
    }
    return null;
  }

  /** A refused listen for another reason than a taken port: the host is not one of this machine's. */
  private static boolean foreignHost(Throwable e) {
    BindException b = bind(e);
    return b != null && (b.getMessage() == null || !b.getMessage().contains(IN_USE));
  }

  private static String notHere(String key, String host, int port, Throwable e) {
    return key + ": cannot listen on " + host + ":" + port + " (" + e.getMessage() + "): " + host
        + " is not an address of this machine (127.0.0.1: this machine only, 0.0.0.0: all of its)";
  }

  public static ConfigException http(Path config, HttpSettings http, Throwable e) {
    if (foreignHost(e)) {
      return new ConfigException(config + ": " + notHere("http.host", http.host(), http.port(), e));
    }
    return new ConfigException(config + ": http.port: the port is already in use (" + http.host() + ":"
        + http.port() + ": " + e.getMessage() + ")" + ANOTHER + "other ports: http.port, and admin.port if set"
        + " (unset, it follows http.port)" + RECIPE);
  }

  public static ConfigException admin(AdminSettings admin, Throwable e) {
    String at = "admin.port: cannot listen on " + admin + ": " + e.getMessage();
    if (foreignHost(e)) {
      return new ConfigException(notHere("admin.host", admin.host(), admin.port(), e));
    }
    if (!taken(e)) {
      return new ConfigException(at + " (another port, or 0 for off)");
    }
    return new ConfigException(at + ANOTHER + (admin.followsHttpPort()
        ? "other ports: another http.port (admin.port, unset, is http.port + 1), or an admin.port of its own (0: off)"
        : "another admin.port (0: off)") + RECIPE);
  }
}
