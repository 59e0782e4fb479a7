package paynotify.http;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.SnapshotIsolationOn;

/** Every payment booking scenario of every channel again on a server with innodb_snapshot_isolation=ON. */
@ExtendWith(SnapshotIsolationOn.class)
class ChannelContractSnapshotIsolationTest extends ChannelContractTest {}
