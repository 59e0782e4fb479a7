package paynotify.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The layout docs/operations.md (Run it on a VPS) says to copy to a server: scripts/, target/paynotify.jar (here: the compiled
 * classes) and target/lib/ (here: links to this JVM's jars), so that a test runs the scripts as shipped.
 */
public final class Installation {
  private Installation() {}

  /** Lays out an installation in {@code home} (conf/ is the caller's to fill) and returns it. */
  public static Path install(Path home) throws IOException {
    Files.createDirectories(home.resolve("scripts"));
    for (String script : List.of("paynotify", "start.sh", "java-options.sh")) {
      Files.copy(Path.of("scripts", script), home.resolve("scripts/" + script));
    }
    Path lib = Files.createDirectories(home.resolve("target/lib"));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        Path jar = Path.of(entry).toAbsolutePath();
        Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
      }
    }
    Path classes = Path.of("target/classes");
    try (OutputStream file = Files.newOutputStream(home.resolve("target/paynotify.jar"));
        JarOutputStream jar = new JarOutputStream(file);
        Stream<Path> all = Files.walk(classes)) {
      for (Path c : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        jar.putNextEntry(new JarEntry(classes.relativize(c).toString().replace(File.separatorChar, '/')));
        jar.write(Files.readAllBytes(c));
        jar.closeEntry();
      }
    }
    return home;
  }

  /** The PATH a script of the installation runs with: this JVM's java first, as an operator's would be. */
  public static String path() {
    return Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator + System.getenv("PATH");
  }
}
