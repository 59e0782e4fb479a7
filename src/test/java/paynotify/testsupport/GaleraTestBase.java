package paynotify.testsupport;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** A test on scripts/galera.sh's three-node cluster: run with -Dgroups=galera, skipped where Galera is missing. */
@Tag("galera")
public abstract class GaleraTestBase {
  protected static GaleraCluster cluster;

  @BeforeAll
  static void cluster() {
    cluster = GaleraCluster.get();
  }
}
