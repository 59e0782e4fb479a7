package paynotify.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * A file that holds a secret (a channel's key, a merchant key, a password, a token, a webhook URL with its key):
 * read only when it is the running user's (the service's) and no other user can read or write it, so that no
 * other account of the machine takes what verifies or moves money. No link is followed. Public keys and
 * certificates are not read through here. Public for {@code paynotify doctor}, which reads each secret's file
 * through the same rules.
 */
public final class SecretFile {
  private static final Set<PosixFilePermission> SHARED = Set.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

  private SecretFile() {}

  /**
   * The text of {@code file}, once it is known to be private.
   *
   * @throws IllegalArgumentException saying what is wrong with the file and what to run (never its content)
   */
  public static String read(Path file) {
    Path path = file.toAbsolutePath();
    try {
      requirePrivate(path);
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("file " + path + " does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + path + ": " + e.getMessage());
    }
  }

  private static void requirePrivate(Path file) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException e) {
      return; // not a POSIX file system: nothing to check with
    }
    if (!attributes.isRegularFile()) {
      throw new IllegalArgumentException(file + " is not a regular file (a link is not followed)");
    }
    String user = System.getProperty("user.name");
    String owner = attributes.owner().getName();
    String fix = "chmod 600 " + file + "; chown " + user + " " + file;
    if (!owner.equals(user)) { // the tools run as the service's user: the owner is likely that one
      throw new IllegalArgumentException(file + " is owned by " + owner + ", not by " + user + ", who runs paynotify:"
          + " run it as " + owner + " (sudo -u " + owner + " paynotify ...), or, if " + user + " is the service's"
          + " user: " + fix);
    }
    if (attributes.permissions().stream().anyMatch(SHARED::contains)) {
      throw new IllegalArgumentException(file + " can be read or written by other users (mode "
          + mode(attributes.permissions()) + "): " + fix);
    }
  }

  /** The permissions as chmod writes them ({@code 644}). */
  private static String mode(Set<PosixFilePermission> permissions) {
    int bits = 0;
    for (PosixFilePermission p : permissions) {
      bits |= 1 << (8 - p.ordinal()); // OWNER_READ first: 0400
    }
    return Integer.toOctalString(bits);
  }
}
