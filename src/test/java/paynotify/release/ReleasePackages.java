package paynotify.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code scripts/package.sh} wrote into target/release, run once for the tests of this JVM (it builds the jar
 * and links a Java runtime: a minute) with umask 002. Its output goes to target/release-build.log.
 */
final class ReleasePackages {
  private static final Pattern TARBALL = Pattern.compile("paynotify-(.+)-linux-x86_64\\.tar\\.gz");
  private static ReleasePackages built;

  final String version;
  final Path tarball;
  final Path deb;
  final Path sums;

  private ReleasePackages(String version, Path tarball, Path deb, Path sums) {
    this.version = version;
    this.tarball = tarball;
    this.deb = deb;
    this.sums = sums;
  }

  static synchronized ReleasePackages get() throws IOException, InterruptedException {
    if (built == null) {
      Path log = Path.of("target/release-build.log");
      // umask 002, as a builder whose group shares its files has: the packages' modes must not follow it
      Process p = new ProcessBuilder("sh", "-c", "umask 002 && exec scripts/package.sh").redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("package.sh finished").isTrue();
      assertThat(p.exitValue()).as("package.sh; its output:%n%s", Files.readString(log)).isZero();
      Path out = Path.of("target/release");
      List<Path> tarballs;
      try (var files = Files.list(out)) {
        tarballs = files.filter(f -> TARBALL.matcher(f.getFileName().toString()).matches()).toList();
      }
      assertThat(tarballs).hasSize(1);
      Matcher m = TARBALL.matcher(tarballs.get(0).getFileName().toString());
      assertThat(m.matches()).isTrue();
      String version = m.group(1);
      built = new ReleasePackages(version, tarballs.get(0).toAbsolutePath(),
          out.resolve("paynotify_" + version + "_amd64.deb").toAbsolutePath(), out.resolve("SHA256SUMS"));
    }
    return built;
  }

  /** {@code command} run to its end in {@code dir} (null: here) with this environment added; output and exit code. */
  static Run run(Path dir, Map<String, String> env, String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    if (dir != null) {
      builder.directory(dir.toFile());
    }
    builder.environment().putAll(env);
    Process p = builder.start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("%s finished", List.of(command)).isTrue();
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  record Run(int exit, String output) {}
}
