package paynotify.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A secret's file as the service requires it (every {@code *_file} that holds a secret): mode 600, owned by the
 * user the tests run as, who is the service's user here. A file the test means to be refused is written otherwise.
 */
public final class PrivateFile {
  private PrivateFile() {}

  /** {@code text} in {@code file} (created, or replaced), readable and writable by this user only. */
  public static Path write(Path file, String text) {
    try {
      Files.deleteIfExists(file);
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      return Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
