package paynotify.reconcile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bills fetched from the platforms, kept as the platform served them: {@code <dir>/<channel>/<date>_<file>},
 * each beside its SHA-256 ({@code .sha256}, as {@code sha256sum -c} reads it), so that a finding can be shown
 * against the very file it came from. Bills older than the retention go when a new one is kept.
 */
public final class BillArchive {
  private static final Pattern DATED = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})_.*");

  private final Path dir;
  private final long keepDays;

  public BillArchive(Path dir, long keepDays) {
    this.dir = dir;
    this.keepDays = keepDays;
  }

  /**
   * Writes {@code content} (whole, then renamed into place: a reader never sees half a bill) and its SHA-256;
   * the path written. {@code fileName} is the platform's name for it, without any folder.
   */
  public Path keep(String channel, LocalDate date, String fileName, byte[] content) throws IOException {
    Path folder = Files.createDirectories(dir.resolve(channel));
    String name = date + "_" + Path.of(fileName).getFileName();
    // the sum first: a bill in place always has its sum beside it
    put(folder, name + ".sha256", (sha256(content) + "  " + name + "\n").getBytes(StandardCharsets.UTF_8));
    Path file = put(folder, name, content);
    purge(folder, date);
    return file;
  }

  /** {@code content} as {@code name}: written to a file of its own, then renamed into place. */
  private static Path put(Path folder, String name, byte[] content) throws IOException {
    Path partial = Files.createTempFile(folder, name, ".part");
    try {
      Files.write(partial, content);
      return Files.move(partial, folder.resolve(name), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  /** Deletes the bills (and their sums) of days more than the retention before {@code newest}. */
  private void purge(Path folder, LocalDate newest) throws IOException {
    LocalDate oldest = newest.minusDays(keepDays);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path f : files) {
        Matcher m = DATED.matcher(f.getFileName().toString());
        if (m.matches() && dateOf(m.group(1)) != null && dateOf(m.group(1)).isBefore(oldest)) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  private static LocalDate dateOf(String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
