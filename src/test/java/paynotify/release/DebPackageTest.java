package paynotify.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.release.ReleasePackages.Run;

/**
 * The .deb as dpkg sees it: its control fields, files and modes, conffile, unit and maintainer scripts; then
 * installed, upgraded and purged by the machine's dpkg in a throwaway root (dpkg --root, the maintainer scripts
 * run chrootless on that root through DPKG_ROOT). Needs Debian's dpkg and root, as CI has. What this does not
 * exercise: systemd starting the unit (the tarball's test runs the same bin/paynotify serve under a clean
 * environment), and the postinst's systemctl calls (skipped outside /).
 */
@Tag("release")
class DebPackageTest {
  /** The restrictions of security review N12, in both units. */
  private static final List<String> RESTRICTIONS = List.of("UMask=0077", "PrivateDevices=yes",
      "ProtectKernelTunables=yes", "ProtectKernelModules=yes", "ProtectKernelLogs=yes", "ProtectControlGroups=yes",
      "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "RestrictNamespaces=yes", "LockPersonality=yes",
      "RestrictSUIDSGID=yes", "SystemCallArchitectures=native", "ProtectProc=invisible", "CapabilityBoundingSet=");

  @TempDir
  Path dir;

  private ReleasePackages release;

  @BeforeEach
  void build() throws Exception {
    release = ReleasePackages.get();
  }

  @Test
  void theDebHoldsTheTreeTheConffileTheUnitAndTheScripts() throws Exception {
    assertThat(dpkgDeb("-f", release.deb.toString(), "Package", "Version", "Architecture").output())
        .isEqualTo("Package: paynotify\nVersion: " + release.version + "\nArchitecture: amd64\n");

    Map<String, String> modes = new HashMap<>();
    for (String line : dpkgDeb("-c", release.deb.toString()).output().lines().toList()) {
      String[] f = line.split("\\s+");
      modes.put(f[5], f[0] + " " + f[1]);
    }
    assertThat(modes).containsEntry("./opt/paynotify/bin/paynotify", "-rwxr-xr-x root/root")
        .containsEntry("./opt/paynotify/runtime/bin/java", "-rwxr-xr-x root/root")
        .containsEntry("./opt/paynotify/runtime/lib/jspawnhelper", "-rwxr-xr-x root/root") // the daily close's runs
        .containsEntry("./opt/paynotify/lib/paynotify.jar", "-rw-r--r-- root/root")
        .containsEntry("./opt/paynotify/bin/java-options.sh", "-rw-r--r-- root/root")
        .containsEntry("./etc/paynotify/application.yaml", "-rw-r----- root/root")
        .containsEntry("./lib/systemd/system/paynotify.service", "-rw-r--r-- root/root")
        .containsEntry("./var/lib/paynotify/", "drwxr-x--- root/root")
        .containsKey("./opt/paynotify/migrations/V1__core_schema.sql");
    // Built with umask 002 (ReleasePackages), as some builders are: the package's modes are its own, not the build
    // tree's. Every directory 755, every file 644 but the programs (the tarball's executables) 755.
    List<String> programs = new ArrayList<>();
    for (String line : tar("-tvzf", release.tarball.toString()).lines().toList()) {
      String[] f = line.split("\\s+");
      if (f[0].startsWith("l")) {
        continue; // the runtime's legal/ notices link to java.base's: a link's mode means nothing
      }
      assertThat(f[0]).as("the tarball's %s: nobody but root writes it", f[5]).matches("[-d]r[-w][-x]r-[-x]r-[-x]");
      if (f[0].startsWith("-") && f[0].contains("x")) {
        programs.add("./opt/paynotify/" + f[5].substring(f[5].indexOf('/') + 1));
      }
    }
    assertThat(programs).contains("./opt/paynotify/bin/paynotify", "./opt/paynotify/runtime/bin/java");
    Map<String, String> others = new HashMap<>(modes);
    others.keySet().removeAll(List.of("./etc/paynotify/application.yaml", "./var/lib/paynotify/"));
    others.values().removeIf(mode -> mode.startsWith("l"));
    others.forEach((entry, mode) -> assertThat(mode).as(entry).isEqualTo(entry.endsWith("/") ? "drwxr-xr-x root/root"
        : programs.contains(entry) ? "-rwxr-xr-x root/root" : "-rw-r--r-- root/root"));

    Path control = dir.resolve("control");
    assertThat(dpkgDeb("-e", release.deb.toString(), control.toString()).exit()).isZero();
    assertThat(Files.readString(control.resolve("conffiles")).strip()).isEqualTo("/etc/paynotify/application.yaml");
    assertThat(Files.readString(control.resolve("postinst"))).contains("useradd")
        .contains("--shell /usr/sbin/nologin paynotify").contains("chmod 0640").contains("systemctl try-restart");

    Path files = dir.resolve("files");
    assertThat(dpkgDeb("-x", release.deb.toString(), files.toString()).exit()).isZero();
    List<String> unit = Files.readAllLines(files.resolve("lib/systemd/system/paynotify.service"));
    assertThat(unit).contains("User=paynotify", "Restart=on-failure", "RestartPreventExitStatus=2",
        "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
        "ReadWritePaths=/var/lib/paynotify", "Environment=JDK_JAVA_OPTIONS=-XX:+ExitOnOutOfMemoryError",
        "ExecStart=/opt/paynotify/bin/paynotify serve --config /etc/paynotify/application.yaml");
    // Security review N12: what the service writes is its user's alone, and it reaches no more of the kernel than
    // a JVM serving HTTP needs. Not MemoryDenyWriteExecute: the JIT writes the code it runs.
    assertThat(unit).containsAll(RESTRICTIONS).noneMatch(line -> line.startsWith("MemoryDenyWriteExecute"));
    assertThat(Files.readAllLines(Path.of("scripts/paynotify.service"))).as("the clone's unit")
        .containsAll(RESTRICTIONS).noneMatch(line -> line.startsWith("MemoryDenyWriteExecute"));
    assertThat(Files.readString(files.resolve("opt/paynotify/bin/paynotify"))).contains("$SERVE_ALWAYS");
    assertThat(Files.readString(files.resolve("opt/paynotify/bin/java-options.sh")))
        .contains("SERVE_ALWAYS=\"-XX:+ExitOnOutOfMemoryError\"");

    // systemd's own reading of the unit, its ExecStart pointed at the extracted tree: no unknown key, no error.
    Path check = Files.createDirectories(dir.resolve("check")).resolve("paynotify.service");
    Files.writeString(check, String.join("\n", unit).replace("/opt/paynotify/bin/",
        files.resolve("opt/paynotify/bin/") + "/") + "\n");
    Run verify = ReleasePackages.run(null, Map.of(), "systemd-analyze", "verify", check.toString());
    assertThat(verify.exit()).as(verify.output()).isZero();
    assertThat(verify.output()).isEmpty();
  }

  @Test
  void dpkgInstallsUpgradesAndPurgesItInAThrowawayRoot() throws Exception {
    Path root = throwawayRoot();
    Run install = dpkg(root, "-i", release.deb.toString());
    assertThat(install.exit()).as(install.output()).isZero();
    assertThat(dpkg(root, "-s", "paynotify").output()).contains("Status: install ok installed",
        "Version: " + release.version);

    String user = Files.readAllLines(root.resolve("etc/passwd")).stream().filter(l -> l.startsWith("paynotify:"))
        .findFirst().orElseThrow(() -> new AssertionError("no paynotify user"));
    String[] u = user.split(":");
    int uid = Integer.parseInt(u[2]);
    int gid = Integer.parseInt(u[3]);
    assertThat(uid).as("a system user").isLessThan(1000);
    assertThat(u[5]).isEqualTo("/var/lib/paynotify");
    assertThat(u[6]).isEqualTo("/usr/sbin/nologin");
    assertOwned(root.resolve("var/lib/paynotify"), uid, gid, "rwxr-x---");
    assertOwned(root.resolve("etc/paynotify"), 0, gid, "rwxr-x---");
    assertOwned(root.resolve("etc/paynotify/application.yaml"), 0, gid, "rw-r-----");

    Run version = ReleasePackages.run(null, Map.of("PATH", "/nonexistent"),
        root.resolve("opt/paynotify/runtime/bin/java").toString(), "-cp", root.resolve("opt/paynotify/lib/*").toString(),
        "paynotify.cli.Main", "--version");
    assertThat(version.output().strip()).isEqualTo("paynotify " + release.version);

    // The site's edits and data survive an upgrade (here: the same version again, postinst configure with the old).
    Path config = root.resolve("etc/paynotify/application.yaml");
    Files.writeString(config, Files.readString(config) + "# the site's edit\n");
    Files.writeString(root.resolve("var/lib/paynotify/bill.csv"), "kept");
    Run again = dpkg(root, "-i", release.deb.toString());
    assertThat(again.exit()).as(again.output()).isZero();
    assertThat(Files.readString(config)).endsWith("# the site's edit\n");
    assertOwned(config, 0, gid, "rw-r-----");
    assertThat(Files.readAllLines(root.resolve("etc/passwd")).stream().filter(l -> l.startsWith("paynotify:")))
        .containsExactly(user);

    Run purge = dpkg(root, "--purge", "paynotify");
    assertThat(purge.exit()).as(purge.output()).isZero();
    assertThat(root.resolve("opt/paynotify")).doesNotExist();
    assertThat(root.resolve("etc/paynotify")).doesNotExist();
    assertThat(root.resolve("lib/systemd/system/paynotify.service")).doesNotExist();
    assertThat(root.resolve("var/lib/paynotify/bill.csv")).hasContent("kept"); // records: a purge keeps them
  }

  /**
   * Security review N12: a paynotify group that exists without the user (left by hand, or by another package) is
   * taken as the user's group; useradd --user-group would fail on it, and postinst with it (set -e).
   */
  @Test
  void dpkgInstallsItWhereAPaynotifyGroupAlreadyExists() throws Exception {
    Path root = throwawayRoot();
    Files.writeString(root.resolve("etc/group"), "paynotify:x:990:\n", java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(root.resolve("etc/gshadow"), "paynotify:!::\n", java.nio.file.StandardOpenOption.APPEND);
    Run install = dpkg(root, "-i", release.deb.toString());
    assertThat(install.exit()).as(install.output()).isZero();
    String[] user = Files.readAllLines(root.resolve("etc/passwd")).stream().filter(l -> l.startsWith("paynotify:"))
        .findFirst().orElseThrow(() -> new AssertionError("no paynotify user")).split(":");
    assertThat(user[3]).as("the user's group: the paynotify group there was").isEqualTo("990");
    assertThat(Files.readAllLines(root.resolve("etc/group"))).filteredOn(l -> l.startsWith("paynotify:"))
        .containsExactly("paynotify:x:990:");
    assertOwned(root.resolve("var/lib/paynotify"), Integer.parseInt(user[2]), 990, "rwxr-x---");
    assertOwned(root.resolve("etc/paynotify/application.yaml"), 0, 990, "rw-r-----");
  }

  /** An empty dpkg database and the account files useradd --prefix edits, with root alone in them. */
  private Path throwawayRoot() throws Exception {
    Path root = dir.resolve("root");
    for (String d : List.of("var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "etc")) {
      Files.createDirectories(root.resolve(d));
    }
    Files.writeString(root.resolve("var/lib/dpkg/status"), "");
    Files.writeString(root.resolve("var/lib/dpkg/available"), "");
    Files.writeString(root.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n");
    Files.writeString(root.resolve("etc/group"), "root:x:0:\n");
    Files.writeString(root.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
    Files.writeString(root.resolve("etc/gshadow"), "root:*::\n");
    return root;
  }

  /** dpkg on {@code root}: its scripts run here with DPKG_ROOT set; the libraries it depends on are the host's. */
  private static Run dpkg(Path root, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("dpkg", "--root=" + root, "--force-script-chrootless",
        "--force-depends", "--log=/dev/null"));
    command.addAll(List.of(args));
    return ReleasePackages.run(null, Map.of(), command.toArray(String[]::new));
  }

  /** The listing of {@code tar} with {@code args} (it must succeed). */
  private static String tar(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("tar"));
    command.addAll(List.of(args));
    Run run = ReleasePackages.run(null, Map.of(), command.toArray(String[]::new));
    assertThat(run.exit()).as(run.output()).isZero();
    return run.output();
  }

  private static Run dpkgDeb(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("dpkg-deb"));
    command.addAll(List.of(args));
    return ReleasePackages.run(null, Map.of(), command.toArray(String[]::new));
  }

  private static void assertOwned(Path file, int uid, int gid, String mode) throws Exception {
    assertThat(Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS)).as("%s owner", file).isEqualTo(uid);
    assertThat(Files.getAttribute(file, "unix:gid", LinkOption.NOFOLLOW_LINKS)).as("%s group", file).isEqualTo(gid);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as("%s mode", file).isEqualTo(mode);
  }
}
