package paynotify.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who may run the tools: the service's user, not root. Root writing into the directories that user owns would
 * follow the links it can plant there (a bill written anywhere) and leave files it cannot read; so a tool run as
 * root is refused when its configuration, or a directory it writes, belongs to another user.
 */
public final class ToolUser {
  private static final String ROOT = "root";

  private ToolUser() {}

  /**
   * Refuses (exit 2) a tool run as root when {@code configFile}, reconcile.bills_dir or the embedded database's
   * data_dir (the nearest of each that exists) belongs to another user, saying how to run it instead.
   */
  public static void refuseRoot(AppConfig config, Path configFile) {
    if (!ROOT.equals(System.getProperty("user.name"))) {
      return;
    }
    Map<String, Path> owned = new LinkedHashMap<>();
    owned.put("--config", configFile);
    owned.put("reconcile.bills_dir", config.bills().dir());
    if (config.database().embedded()) {
      owned.put("database.embedded.data_dir", config.database().embeddedDir());
    }
    owned.forEach((key, path) -> {
      Path existing = nearestExisting(path.toAbsolutePath().normalize());
      String owner = owner(existing);
      if (owner != null && !owner.equals(ROOT)) {
        throw new ConfigException(configFile + ": " + key + ": " + existing + " belongs to " + owner + ", and this"
            + " tool runs as root: run the tools as the service's user, sudo -u " + owner + " paynotify ...");
      }
    });
  }

  /** {@code path}, or its nearest parent that exists: what a tool would create its directories in. */
  private static Path nearestExisting(Path path) {
    Path p = path;
    while (p.getParent() != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      p = p.getParent();
    }
    return p;
  }

  /** The owner of {@code path} itself (a link's own); null where the file system cannot say. */
  private static String owner(Path path) {
    try {
      return Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName();
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }
}
