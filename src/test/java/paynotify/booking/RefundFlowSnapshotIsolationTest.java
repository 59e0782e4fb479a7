package paynotify.booking;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.SnapshotIsolationOn;

/** Every refund scenario again on a server with innodb_snapshot_isolation=ON. */
@ExtendWith(SnapshotIsolationOn.class)
class RefundFlowSnapshotIsolationTest extends RefundFlowTest {}
