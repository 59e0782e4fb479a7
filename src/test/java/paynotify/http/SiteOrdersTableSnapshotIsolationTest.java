package paynotify.http;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.SnapshotIsolationOn;

/** The site tables' scenarios again on a server with innodb_snapshot_isolation=ON (MariaDB 11.6+). */
@ExtendWith(SnapshotIsolationOn.class)
class SiteOrdersTableSnapshotIsolationTest extends SiteOrdersTableTest {}
