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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
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
          "channel.wechat", "channel.xunhupay"),        // each platform, in and out
      List.of("store"),                                 // the database
      List.of("channel"),                               // the platforms' common words
      List.of("net", "crypto", "timer"));               // calls out; what signatures are built from; workers' clocks

  /** About what a newcomer takes in at a glance; a room that needs more wants a second room. */
  private static final int MAX_CLASSES_PER_ROOM = 20;

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
}
