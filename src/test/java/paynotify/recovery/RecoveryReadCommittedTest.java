package paynotify.recovery;

import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.ReadCommittedServer;

/** Every recovery scenario again on a server whose default isolation is READ COMMITTED. */
@ExtendWith(ReadCommittedServer.class)
class RecoveryReadCommittedTest extends RecoveryTest {}
