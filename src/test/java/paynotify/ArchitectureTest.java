package paynotify;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house's floor plan, read from the compiled classes: each room (package) may use only the rooms on the
 * floors below it, never one beside it or above it, and no room grows past what a newcomer reads at a glance.
 * A change that breaks the plan fails here, with the offending dependency named.
 */
class ArchitectureTest {
  /**
   * Top floor first. A room may depend on rooms of later floors only. Rooms on one floor know nothing of each
   * other: admin and http, say, are two doors into the same house.
   */
  private static final List<List<String>> FLOORS = List.of(
      List.of("cli"),                                   // the command line: serve and the operator's tools
      List.of("cli.options", "doctor"),                 // the commands' shared options; doctor's checks
      List.of("server"),                                // the running service wired on one Vert.x
      List.of("setup"),                                 // the database made ready before serving
      List.of("setup.migrate"),                         // what IsolatedMigrations loads in its own class loader
      List.of("config"),                                // conf/application.yaml read into settings
      List.of("admin", "http"),                         // the two listeners
      List.of("alert.watch"),                           // what the owner is told about, looked for
      List.of("forward", "alert"),                      // the site told, from the outbox; the owner alerted
      List.of("reconcile.daily"),                       // the daily close: fetch, reconcile, repair, report
      List.of("booking.check", "recovery"),             // the periodic checks; recovery asks the platforms
      List.of("booking", "reconcile"),                  // what books money; bills
      List.of("booking.anomaly"),                       // what needs a human
      List.of("channel.alipay", "channel.epay", "channel.epusdt", "channel.paypal", "channel.stripe", "channel.vmq",
          "channel.wechat", "channel.xunhupay", "channel.paddle", "channel.tokenpay",
          "channel.lemonsqueezy", "channel.creem"), // each platform, in and out
      List.of("store"),                                 // the database
      List.of("channel"),                               // the platforms' common words
      List.of("net", "crypto", "timer"));               // calls out; what signatures are built from; workers' clocks

  /** About what a newcomer takes in at a glance; a room that needs more wants a second room. */
  private static final int MAX_CLASSES_PER_ROOM = 20;

  /** Where the rooms' sources are: each folder with a class has a package-info.java saying what the room is for. */
  private static final Path SOURCES = Path.of("src/main/java");

  /** A class named after a platform ({@code AlipayGateway}) and the folder that holds that platform, in and out. */
  private static final Map<String, String> PLATFORM_PREFIXES = Stream.of("Alipay", "Wechat", "Epay", "Epusdt",
      "Stripe", "Paypal", "Vmq", "Xunhupay", "Paddle", "TokenPay", "LemonSqueezy", "Creem")
      .collect(Collectors.toMap(p -> p, p -> "paynotify.channel." + p.toLowerCase(Locale.ROOT)));
  /** The bill formats: a file's columns, read by reconcile, whichever way the file came. */
  private static final Set<String> NAMED_AFTER_A_PLATFORM_ELSEWHERE = Set.of("paynotify.reconcile.AlipayBill",
      "paynotify.reconcile.WechatBill");

  /** The calls that make an HTTP client, by the class they are called on. */
  private static final Map<String, Set<String>> HTTP_CLIENT_MAKERS = Map.of(
      "io.vertx.core.Vertx", Set.of("createHttpClient", "httpClientBuilder"),
      "java.net.http.HttpClient", Set.of("newHttpClient", "newBuilder"),
      "java.net.URL", Set.of("openConnection"));

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("paynotify");

  @Test
  void noRoomDependsOnItselfThroughAnother() {
    slices().matching("paynotify.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void everyRoomUsesOnlyTheFloorsBelowIt() {
    Map<String, Integer> floorOf = new TreeMap<>();
    for (int floor = 0; floor < FLOORS.size(); floor++) {
      for (String room : FLOORS.get(floor)) {
        floorOf.put("paynotify." + room, floor);
      }
    }
    TreeSet<String> unplaced = new TreeSet<>();
    TreeSet<String> upOrAcross = new TreeSet<>();
    for (JavaClass c : MAIN) {
      Integer from = floorOf.get(c.getPackageName());
      if (from == null) {
        unplaced.add(c.getPackageName());
        continue;
      }
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String target = d.getTargetClass().getPackageName();
        Integer to = floorOf.get(target);
        if (to != null && !target.equals(c.getPackageName()) && to <= from) {
          upOrAcross.add(c.getPackageName() + " -> " + target + " (" + d.getDescription() + ")");
        }
      }
    }
    assertThat(unplaced).as("rooms missing from FLOORS: give each new package its floor").isEmpty();
    assertThat(upOrAcross).as("dependencies up a floor or across one").isEmpty();
  }

  @Test
  void noRoomHoldsMoreThanANewcomerReadsAtAGlance() {
    Map<String, Long> classesPerRoom = MAIN.stream()
        .filter(c -> c.isTopLevelClass() && !c.getSimpleName().equals("package-info"))
        .collect(Collectors.groupingBy(JavaClass::getPackageName, TreeMap::new, Collectors.counting()));
    assertThat(classesPerRoom).isNotEmpty();
    assertThat(classesPerRoom.entrySet()).as("rooms over %d classes", MAX_CLASSES_PER_ROOM)
        .allSatisfy(room -> assertThat(room.getValue()).as(room.getKey()).isLessThanOrEqualTo(MAX_CLASSES_PER_ROOM));
  }

  /**
   * What the isolated loader drops after the start must not be reached from the application's loader while
   * serving: that would load the JDBC driver there for good. The commands, short-lived, may.
   */
  @Test
  void onlyTheCommandsReachTheMigrationsInTheirOwnLoader() {
    classes().that().resideInAPackage("paynotify.setup.migrate..")
        .should().onlyHaveDependentClassesThat(resideInAPackage("paynotify.setup.migrate..")
            .or(name("paynotify.cli.CliDatabase"))
            .or(name("paynotify.setup.Schema")))
        .because("serve reaches them only through IsolatedMigrations' class loader, by name")
        .check(MAIN);
  }

  @Test
  void theNotifyListenerRunsNoSql() {
    noClasses().that().resideInAPackage("paynotify.http..")
        .should().dependOnClassesThat().resideInAnyPackage("io.vertx.sqlclient..", "java.sql..")
        .because("http/ routes and replies; booking and store speak to the database")
        .check(MAIN);
  }

  @Test
  void channelsNeverTouchTheDatabase() {
    noClasses().that().resideInAPackage("paynotify.channel..")
        .should().dependOnClassesThat().resideInAnyPackage("io.vertx.sqlclient..", "java.sql..", "paynotify.store..")
        .because("a channel parses, verifies and normalises; booking is the same for all of them")
        .check(MAIN);
  }

  @Test
  void everyRoomSaysWhatItIsFor() throws IOException {
    TreeSet<String> unlabelled = new TreeSet<>();
    try (Stream<Path> files = Files.walk(SOURCES.resolve("paynotify"))) {
      files.filter(f -> f.toString().endsWith(".java")).map(Path::getParent).distinct()
          .filter(room -> !Files.exists(room.resolve("package-info.java")))
          .forEach(room -> unlabelled.add(SOURCES.relativize(room).toString().replace('/', '.')));
    }
    assertThat(unlabelled).as("packages without a package-info.java (one paragraph: what the room is for)").isEmpty();
  }

  /**
   * The top floor is reached by no room below it, not even by name: a class name in a string (a child process's
   * main class, a reflective load) is a dependency the floors cannot see. Read from the compiled constant pools, so
   * a name built of constants counts too.
   */
  @Test
  void nothingBelowTheCommandLineNamesItInAString() throws IOException {
    TreeSet<String> named = new TreeSet<>();
    for (JavaClass c : MAIN) {
      if (c.getPackageName().startsWith("paynotify.cli") || c.getSource().isEmpty()) {
        continue;
      }
      for (String constant : stringConstants(c)) {
        if (constant.contains("paynotify.cli")) {
          named.add(c.getName() + ": \"" + constant + "\"");
        }
      }
    }
    assertThat(named).as("classes outside paynotify.cli naming it in a string constant").isEmpty();
  }

  /** Where is Alipay? In channel/alipay/, all of it: a class named after a platform lives in that platform's folder. */
  @Test
  void aClassNamedAfterAPlatformLivesInItsFolder() {
    TreeSet<String> elsewhere = new TreeSet<>();
    for (JavaClass c : MAIN) {
      PLATFORM_PREFIXES.forEach((prefix, folder) -> {
        if (c.getSimpleName().startsWith(prefix) && !c.getPackageName().equals(folder)
            && !NAMED_AFTER_A_PLATFORM_ELSEWHERE.contains(c.getName())) {
          elsewhere.add(c.getName() + " (belongs in " + folder + ")");
        }
      });
    }
    assertThat(elsewhere).as("classes named after a platform outside its folder").isEmpty();
  }

  /**
   * One module makes the HTTP clients (bounded pool and queue, time limit, capped answer, no redirects); a caller
   * that needs its own connections asks it for a client of its own.
   */
  @Test
  void oneClassMakesTheHttpClients() {
    TreeSet<String> makers = new TreeSet<>();
    for (JavaClass c : MAIN) {
      c.getMethodCallsFromSelf().stream()
          .filter(call -> HTTP_CLIENT_MAKERS.getOrDefault(call.getTargetOwner().getName(), Set.of())
              .contains(call.getName()))
          .forEach(call -> makers.add(topLevel(c).getName()));
    }
    assertThat(makers).as("classes that make an HTTP client (Vert.x's or the JDK's)").hasSizeLessThanOrEqualTo(1);
  }

  private static JavaClass topLevel(JavaClass c) {
    return c.getEnclosingClass().map(ArchitectureTest::topLevel).orElse(c);
  }

  /** The CONSTANT_String entries of a compiled class (JVMS 4.4): the string literals and constants it holds. */
  private static List<String> stringConstants(JavaClass c) throws IOException {
    try (InputStream bytes = c.getSource().get().getUri().toURL().openStream();
        DataInputStream in = new DataInputStream(bytes)) {
      in.skipNBytes(8); // magic, minor and major version
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      List<Integer> strings = new ArrayList<>();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 8 -> strings.add(in.readUnsignedShort());
          case 7, 16, 19, 20 -> in.skipNBytes(2);
          case 15 -> in.skipNBytes(3);
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
          case 5, 6 -> {
            in.skipNBytes(8);
            i++; // a long or a double takes two entries
          }
          default -> throw new IOException(c.getName() + ": constant pool tag " + tag);
        }
      }
      return strings.stream().map(index -> utf8[index]).toList();
    }
  }
}
