package paynotify.recovery;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.SnapshotIsolationOn;

/** TokenPay's confirm before booking again on a server with innodb_snapshot_isolation=ON. */
@ExtendWith(SnapshotIsolationOn.class)
class TokenPayConfirmBeforeBookSnapshotIsolationTest extends TokenPayConfirmBeforeBookTest {}
